import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react'
import type { RunView } from '../../../store/index.ts'
import { TimelineBrush } from './TimelineBrush.tsx'
import { timelineGeometry, type TimelineGeometry } from './timelineGeometry.ts'
import type { TimelinePoint } from './timelineModel.ts'
import { TimelinePlot } from './TimelinePlot.tsx'
import { nearestIndex } from './timelineScale.ts'
import { TimelineTooltip } from './TimelineTooltip.tsx'

interface ChartProps {
  /** Context tokens per call, or what each call costs (USD, prompt cache modelled). */
  readonly mode: 'tokens' | 'cost'
  readonly points: readonly TimelinePoint[]
  readonly usable: number
  readonly hasReported: boolean
  readonly triggers: RunView['triggers']
  /** The brushed calls (indexes into `points`); the whole series when nothing is brushed. */
  readonly brush: { readonly start: number; readonly end: number }
  readonly onBrush: (start: number, end: number) => void
  /** A click on the chart (or Enter): the call under the pointer. */
  readonly onPick: (point: TimelinePoint) => void
}

/**
 * The box's size, from a ResizeObserver: its first report comes after layout, so the first render
 * draws nothing and measures nothing (no forced layout inside the render of a paste or an edit).
 */
function useBoxSize() {
  const ref = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  useEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return
      const width = Math.floor(entry.contentRect.width)
      const height = Math.floor(entry.contentRect.height)
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return { ref, ...size }
}

/**
 * The call under a pixel: anywhere over the plot or its x axis (a short chart's plot is a thin
 * strip); null beside it or over the brush.
 */
function pointAt(geometry: TimelineGeometry, px: number, py: number): number | null {
  const { left, right, brushTop } = geometry.layout
  if (px < left - 4 || px > right + 4 || py < 0 || py >= brushTop) return null
  const i = nearestIndex(geometry.calls, geometry.x.invert(px))
  return i < 0 ? null : i
}

/**
 * Context tokens (or cost) per model call: original vs compacted, the usable window and trigger
 * levels, where strategies fired and where the source system compacted; a brush below picks a
 * range. Our own SVG (issue 14): one path per series, the axes computed, hover mapped from x to
 * the call — no per-point elements but the markers.
 */
export function TimelineChart(props: ChartProps) {
  const { mode, points, usable, hasReported, triggers, brush, onBrush, onPick } = props
  const { ref, width, height } = useBoxSize()
  const geometry = useMemo(
    () =>
      width > 0 && height > 0
        ? timelineGeometry({ mode, points, usable, triggers, width, height })
        : null,
    [mode, points, usable, triggers, width, height],
  )
  const [active, setActive] = useState<number | null>(null)
  const shown = active !== null && active < points.length ? active : null
  const point = shown === null ? undefined : points[shown]

  const local = (e: MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect()
    return geometry ? pointAt(geometry, e.clientX - box.left, e.clientY - box.top) : null
  }
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const at = local(e)
    if (at !== active) setActive(at)
  }
  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const at = local(e)
    const picked = at === null ? undefined : points[at]
    if (picked) onPick(picked)
  }
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const last = points.length - 1
    const from = shown ?? 0
    const next =
      e.key === 'ArrowRight'
        ? Math.min(last, from + 1)
        : e.key === 'ArrowLeft'
          ? Math.max(0, from - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null
    if (next !== null) {
      e.preventDefault()
      setActive(next)
    } else if ((e.key === 'Enter' || e.key === ' ') && point) {
      e.preventDefault()
      onPick(point)
    }
  }

  const cx = geometry && point ? geometry.x(point.call) : 0
  const after = point ? (mode === 'cost' ? point.costAfter : point.after) : null
  return (
    <div className="timeline-chart" ref={ref}>
      {geometry ? (
        <svg
          className="timeline-surface"
          width={width}
          height={height}
          tabIndex={0}
          aria-label="Model calls: arrow keys step through them, Enter selects the call's group"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
          onClick={onClick}
          onKeyDown={onKeyDown}
          onFocus={() => setActive((a) => a ?? 0)}
          onBlur={() => setActive(null)}
        >
          <TimelinePlot
            geometry={geometry}
            mode={mode}
            points={points}
            usable={usable}
            hasReported={hasReported}
            triggers={triggers}
          />
          {point ? (
            <g className="timeline-cursor" aria-hidden="true">
              <line x1={cx} x2={cx} y1={geometry.layout.top} y2={geometry.layout.bottom} />
              {after === null ? null : <circle cx={cx} cy={geometry.y(after)} r={3} />}
            </g>
          ) : null}
          {points.length > 1 ? (
            <TimelineBrush
              layout={geometry.layout}
              calls={geometry.calls}
              brush={brush}
              onBrush={onBrush}
            />
          ) : null}
        </svg>
      ) : null}
      {geometry && point ? (
        <div
          className="timeline-tooltip-wrap"
          style={
            cx > width / 2
              ? { right: width - cx + 12, top: geometry.layout.top }
              : { left: cx + 12, top: geometry.layout.top }
          }
        >
          <TimelineTooltip point={point} />
        </div>
      ) : null}
    </div>
  )
}
