/**
 * The timeline's geometry, without React or the DOM: the plot area, the scales, the axis ticks and
 * one SVG path string per series. The chart draws what this returns; nothing here measures text or
 * touches the page, so a render of the chart is a handful of elements (issue 14: a recharts render
 * of the same series was one 100+ ms task in a paste).
 */

/** Where the parts sit inside the chart's box (px). */
export interface TimelineLayout {
  readonly width: number
  readonly height: number
  /** The plot area: the lines, markers and grid. */
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
  /** The brush strip under the x axis. */
  readonly brushTop: number
  readonly brushHeight: number
}

/** The space the axes and the brush take: the same margins the recharts chart had. */
const MARGIN = { top: 12, right: 16, bottom: 4, left: 4 } as const
export const Y_AXIS_WIDTH = 48
export const X_AXIS_HEIGHT = 30
export const BRUSH_HEIGHT = 24

export function timelineLayout(width: number, height: number, brush: boolean): TimelineLayout {
  const brushHeight = brush ? BRUSH_HEIGHT : 0
  const left = MARGIN.left + Y_AXIS_WIDTH
  const right = Math.max(left + 1, width - MARGIN.right)
  const brushTop = height - MARGIN.bottom - brushHeight
  const bottom = Math.max(MARGIN.top + 1, brushTop - X_AXIS_HEIGHT)
  return { width, height, left, right, top: MARGIN.top, bottom, brushTop, brushHeight }
}

/** A step of 1, 2, 2.5 or 5 × 10ⁿ nearest to `raw` (by ratio): the round numbers an axis is read in. */
function niceStep(raw: number, integer: boolean): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  const fraction = raw / power
  let nice = 1
  for (const candidate of [2, 2.5, 5, 10])
    if (Math.abs(Math.log(candidate / fraction)) < Math.abs(Math.log(nice / fraction)))
      nice = candidate
  const step = nice * power
  return integer ? Math.max(1, Math.round(step)) : step
}

/** How many axis intervals fit: one per `spacing` pixels, between 2 and `most`. */
export function tickCount(pixels: number, spacing: number, most: number): number {
  return Math.max(2, Math.min(most, Math.floor(pixels / spacing)))
}

/**
 * The y axis from 0: about `count` intervals of a round step, the top raised to the next tick (as
 * recharts did with a `[0, top]` domain), so the highest value never sits above the last label.
 */
export function yTicks(top: number, count = 5): { readonly max: number; readonly ticks: number[] } {
  const step = niceStep(top / count, false)
  const max = top > 0 ? Number((Math.ceil(top / step - 1e-9) * step).toPrecision(12)) : 1
  const ticks: number[] = []
  // Multiples computed from the index, not summed: no drift in a label like 0.30000000000000004.
  for (let i = 0; i * step <= max + step * 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)))
  return { max, ticks }
}

/** Round call numbers between `min` and `max` (both included in the domain, not forced as ticks). */
export function xTicks(min: number, max: number, count = 5): number[] {
  if (max <= min) return [min]
  const step = niceStep((max - min) / count, true)
  const ticks: number[] = []
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) ticks.push(t)
  return ticks
}

/** A linear map from a value domain onto a pixel range. */
export interface Scale {
  (value: number): number
  /** The value at a pixel (the inverse). */
  readonly invert: (px: number) => number
}

export function linearScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const span = d1 - d0 || 1
  const k = (r1 - r0) / span
  const scale = ((value: number) => r0 + (value - d0) * k) as Scale & { invert: Scale['invert'] }
  scale.invert = (px: number) => d0 + (px - r0) / k
  return scale
}

const px = (value: number) => Math.round(value * 10) / 10

/**
 * One path string for a series, decimated: per pixel column at most its lowest and highest value
 * (in the order they come), so a column of many calls draws its peak and its trough and nothing
 * else. Null values (a call without a figure) break the line, as recharts' line did not connect
 * them either. `xs` must be ascending.
 */
export function seriesPath(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null>,
  x: (value: number) => number,
  y: (value: number) => number,
): string {
  let d = ''
  let pen = false
  let column = Number.NaN
  // The current column's extremes: index of the lowest and highest pixel y.
  let lo = -1
  let hi = -1
  const flush = () => {
    if (lo < 0) return
    const first = Math.min(lo, hi)
    const last = Math.max(lo, hi)
    for (const i of first === last ? [first] : [first, last]) {
      d += `${pen ? 'L' : 'M'}${px(x(xs[i] as number))},${px(y(ys[i] as number))}`
      pen = true
    }
    lo = -1
    hi = -1
  }
  for (let i = 0; i < xs.length; i++) {
    const value = ys[i]
    if (value === null || value === undefined || !Number.isFinite(value)) {
      flush()
      pen = false
      column = Number.NaN
      continue
    }
    const col = Math.round(x(xs[i] as number))
    if (col !== column) {
      flush()
      column = col
    }
    if (lo < 0 || value < (ys[lo] as number)) lo = i
    if (hi < 0 || value > (ys[hi] as number)) hi = i
  }
  flush()
  return d
}

/** The index of the value in ascending `xs` nearest to `value` (-1 when there is none). */
export function nearestIndex(xs: ArrayLike<number>, value: number): number {
  const n = xs.length
  if (n === 0) return -1
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((xs[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  if (lo > 0 && value - (xs[lo - 1] as number) <= (xs[lo] as number) - value) return lo - 1
  return lo
}

/**
 * Keep at most one marker per `gap` pixels (the first in each slot): thousands of calls where a
 * strategy fired would otherwise be thousands of overlapping shapes in the DOM.
 */
export function spacedMarkers<T>(items: readonly T[], xOf: (item: T) => number, gap = 4): T[] {
  const kept: T[] = []
  let last = Number.NEGATIVE_INFINITY
  for (const item of items) {
    const at = xOf(item)
    if (at - last < gap) continue
    kept.push(item)
    last = at
  }
  return kept
}

/** Where a trigger line's label goes, and whether it is the short form. */
export interface LabelPlace {
  readonly x: number
  readonly short: boolean
}

/** Pixels between two label baselines below which the labels would overlap (10 px text). */
const LABEL_LINE_GAP = 12
/** A rough width per character of the 10 px labels, and the space between two labels. */
const LABEL_CHAR_PX = 6
const LABEL_GAP_PX = 10

/**
 * Labels for horizontal lines at pixel heights `ys`: a line alone keeps its long label at the
 * left; lines close enough for their labels to overlap (triggers at 90K, 120K and 153K on a short
 * chart) get their short labels side by side instead, in the order of their heights. The long
 * text stays in each line's tooltip. `shortLength[i]` is the character count of line i's short
 * label.
 */
export function placeLineLabels(
  ys: readonly number[],
  shortLength: readonly number[],
  left: number,
): LabelPlace[] {
  const order = ys.map((_, i) => i).sort((a, b) => (ys[b] as number) - (ys[a] as number))
  const places: LabelPlace[] = ys.map(() => ({ x: left, short: false }))
  let start = 0
  while (start < order.length) {
    // A cluster: each line within a label's height of the one before it.
    let end = start + 1
    while (
      end < order.length &&
      (ys[order[end - 1] as number] as number) - (ys[order[end] as number] as number) <
        LABEL_LINE_GAP
    )
      end++
    if (end - start > 1) {
      let x = left
      for (let k = start; k < end; k++) {
        const i = order[k] as number
        places[i] = { x, short: true }
        x += (shortLength[i] as number) * LABEL_CHAR_PX + LABEL_GAP_PX
      }
    }
    start = end
  }
  return places
}
