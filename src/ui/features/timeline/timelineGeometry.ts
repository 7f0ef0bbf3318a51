import type { RunView } from '../../../store/index.ts'
import type { TimelinePoint } from './timelineModel.ts'
import {
  linearScale,
  seriesPath,
  tickCount,
  timelineLayout,
  xTicks,
  yTicks,
  type Scale,
  type TimelineLayout,
} from './timelineScale.ts'

/** Everything the chart draws, in pixels: computed once per series, size and mode. */
export interface TimelineGeometry {
  readonly layout: TimelineLayout
  readonly x: Scale
  readonly y: Scale
  /** The call number of each point (ascending): the hover maps a pixel back through it. */
  readonly calls: Float64Array
  readonly xTicks: readonly number[]
  readonly yTicks: readonly number[]
  /** The original and compacted lines' path strings. */
  readonly beforePath: string
  readonly afterPath: string
  /** The compacted line's value per point (null: no figure, e.g. no price in cost mode). */
  readonly afterValues: readonly (number | null)[]
}

export interface GeometryInput {
  readonly mode: 'tokens' | 'cost'
  readonly points: readonly TimelinePoint[]
  readonly usable: number
  readonly triggers: RunView['triggers']
  readonly width: number
  readonly height: number
}

/**
 * The y domain: in tokens the series, the reported figures and the usable window with 5 % head
 * room, and every trigger level (drawn, so inside); in cost the series with 10 %. The same tops
 * the recharts chart used.
 */
function topOf(input: GeometryInput): number {
  const { mode, points, usable, triggers } = input
  let max = 0
  if (mode === 'cost') {
    for (const p of points) max = Math.max(max, p.costBefore ?? 0, p.costAfter ?? 0)
    return max * 1.1
  }
  for (const p of points) max = Math.max(max, p.before, p.after, p.reported ?? 0)
  const top = Math.ceil(Math.max(max, usable) * 1.05)
  return triggers.reduce((t, trigger) => Math.max(t, trigger.tokens), top)
}

export function timelineGeometry(input: GeometryInput): TimelineGeometry {
  const { mode, points, width, height } = input
  const layout = timelineLayout(width, height, points.length > 1)
  const calls = Float64Array.from(points, (p) => p.call)
  const first = calls[0] ?? 0
  const last = calls[calls.length - 1] ?? first
  const x = linearScale(first, last === first ? first + 1 : last, layout.left, layout.right)
  const y0 = yTicks(topOf(input), tickCount(layout.bottom - layout.top, 22, 5))
  const y = linearScale(0, y0.max, layout.bottom, layout.top)
  const cost = mode === 'cost'
  const beforeValues = points.map((p) => (cost ? p.costBefore : p.before))
  const afterValues = points.map((p) => (cost ? p.costAfter : p.after))
  return {
    layout,
    x,
    y,
    calls,
    xTicks: xTicks(first, last, tickCount(layout.right - layout.left, 90, 10)),
    yTicks: y0.ticks,
    beforePath: seriesPath(calls, beforeValues, x, y),
    afterPath: seriesPath(calls, afterValues, x, y),
    afterValues,
  }
}
