import { useRef, type KeyboardEvent, type PointerEvent } from 'react'

interface SplitterProps {
  /** What is being resized, for screen readers: "Resize the import column". */
  readonly label: string
  readonly value: number
  readonly min: number
  readonly max: number
  readonly onChange: (value: number) => void
  /** +1 when dragging right makes the panel wider (a left panel), -1 for a right-hand panel. */
  readonly direction: 1 | -1
  readonly testId?: string
  readonly className?: string
  readonly controls?: string
  /**
   * `vertical` (the default) is a column rule resized along x; `horizontal` is a row rule
   * resized along y (the timeline's bottom edge): then +1 means dragging down grows the pane.
   */
  readonly orientation?: 'vertical' | 'horizontal'
}

const STEP = 16
const BIG_STEP = 64

/**
 * A window splitter (WAI-ARIA `separator`, focusable): drag with a pointer, or focus it and use
 * ←/→ (↑/↓ for a horizontal one; Shift for bigger steps), Home and End. The value is the pane's
 * width (or height) in px.
 */
export function Splitter(props: SplitterProps) {
  const { label, value, min, max, onChange, direction, testId, className, controls } = props
  const horizontal = props.orientation === 'horizontal'
  const along = (event: { clientX: number; clientY: number }) =>
    horizontal ? event.clientY : event.clientX
  const [grow, shrink] = horizontal ? ['ArrowDown', 'ArrowUp'] : ['ArrowRight', 'ArrowLeft']
  const drag = useRef<{ x: number; value: number; pointer: number } | null>(null)
  const clamp = (v: number) => Math.min(max, Math.max(min, Math.round(v)))

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return
    event.preventDefault()
    event.currentTarget.setPointerCapture(event.pointerId)
    event.currentTarget.focus()
    drag.current = { x: along(event), value, pointer: event.pointerId }
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current
    if (!start || start.pointer !== event.pointerId) return
    onChange(clamp(start.value + direction * (along(event) - start.x)))
  }
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointer !== event.pointerId) return
    drag.current = null
    if (event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId)
    }
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? BIG_STEP : STEP
    let next: number | null = null
    if (event.key === grow) next = value + direction * step
    else if (event.key === shrink) next = value - direction * step
    else if (event.key === 'Home') next = min
    else if (event.key === 'End') next = max
    if (next === null) return
    // Handled here: the global shortcuts see defaultPrevented and stand aside.
    event.preventDefault()
    onChange(clamp(next))
  }

  return (
    <div
      role="separator"
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-controls={controls}
      tabIndex={0}
      className={className ? `splitter ${className}` : 'splitter'}
      data-testid={testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
    />
  )
}
