import { memo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import type { TimelineLayout } from './timelineScale.ts'

const HANDLE = 8

interface Range {
  readonly start: number
  readonly end: number
}

interface BrushProps {
  readonly layout: TimelineLayout
  /** The call number of each point: the labels at the handles. */
  readonly calls: Float64Array
  readonly brush: Range
  readonly onBrush: (start: number, end: number) => void
}

/** What a pointer drag moves: one handle, or the selected span as a whole. */
type Grip = 'start' | 'end' | 'span'

const clamp = (value: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, value))

/**
 * The range picker under the chart: two handles over the points (indexes), dragged with the pointer
 * (the span between them drags both) or moved with the arrow keys when focused. The table filter
 * changes once, when a drag ends, not at every pixel of it.
 */
export const TimelineBrush = memo(function TimelineBrush(props: BrushProps) {
  const { layout, calls, brush, onBrush } = props
  const last = Math.max(1, calls.length - 1)
  const left = layout.left
  const width = layout.right - layout.left
  const step = (width - HANDLE) / last
  const pos = (i: number) => left + i * step
  const indexAt = (px: number) => clamp(Math.round((px - left - HANDLE / 2) / step), 0, last)
  const [drag, setDrag] = useState<Range | null>(null)
  const origin = useRef<{ grip: Grip; px: number; range: Range } | null>(null)
  const shown = drag ?? brush
  const lo = Math.min(shown.start, shown.end)
  const hi = Math.max(shown.start, shown.end)

  const svgX = (e: PointerEvent<SVGElement>) => {
    const box = e.currentTarget.ownerSVGElement?.getBoundingClientRect()
    return e.clientX - (box?.left ?? 0)
  }
  const down = (grip: Grip) => (e: PointerEvent<SVGElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId)
    origin.current = { grip, px: svgX(e), range: { start: lo, end: hi } }
    setDrag({ start: lo, end: hi })
  }
  const move = (e: PointerEvent<SVGElement>) => {
    const o = origin.current
    if (!o) return
    const at = indexAt(svgX(e))
    if (o.grip === 'start') setDrag({ start: at, end: o.range.end })
    else if (o.grip === 'end') setDrag({ start: o.range.start, end: at })
    else {
      const span = o.range.end - o.range.start
      const shift = Math.round((svgX(e) - o.px) / step)
      const start = clamp(o.range.start + shift, 0, last - span)
      setDrag({ start, end: start + span })
    }
  }
  const up = () => {
    origin.current = null
    if (drag) onBrush(Math.min(drag.start, drag.end), Math.max(drag.start, drag.end))
    setDrag(null)
  }
  const key = (which: 'start' | 'end') => (e: KeyboardEvent<SVGElement>) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (delta === 0) return
    e.preventDefault()
    e.stopPropagation()
    const next = { start: lo, end: hi }
    if (which === 'start') next.start = clamp(lo + delta, 0, hi)
    else next.end = clamp(hi + delta, lo, last)
    onBrush(next.start, next.end)
  }
  const handle = (which: 'start' | 'end', index: number) => (
    <rect
      className="timeline-brush-handle"
      data-handle={which}
      role="slider"
      tabIndex={0}
      aria-label={`Brush ${which}: pick a range of calls to filter the table`}
      aria-valuemin={calls[0]}
      aria-valuemax={calls[last]}
      aria-valuenow={calls[index]}
      x={pos(index)}
      y={layout.brushTop}
      width={HANDLE}
      height={layout.brushHeight}
      onPointerDown={down(which)}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onKeyDown={key(which)}
    />
  )
  const mid = layout.brushTop + layout.brushHeight / 2
  return (
    <g className={drag ? 'timeline-brush dragging' : 'timeline-brush'}>
      <rect
        className="timeline-brush-back"
        x={left}
        y={layout.brushTop}
        width={width}
        height={layout.brushHeight}
      />
      <rect
        className="timeline-brush-slide"
        x={pos(lo) + HANDLE}
        y={layout.brushTop}
        width={Math.max(0, pos(hi) - pos(lo) - HANDLE)}
        height={layout.brushHeight}
        onPointerDown={down('span')}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      {handle('start', shown.start)}
      {handle('end', shown.end)}
      <g className="timeline-brush-texts">
        <text x={pos(lo) - 5} y={mid} dy="0.355em" textAnchor="end">
          {calls[lo]}
        </text>
        <text x={pos(hi) + HANDLE + 5} y={mid} dy="0.355em" textAnchor="start">
          {calls[hi]}
        </text>
      </g>
    </g>
  )
})
