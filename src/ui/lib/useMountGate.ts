import { useEffect, useState } from 'react'

/**
 * Whether a heavy panel may draw the run that just came in: false for `frames` frames after
 * `open` turns true (a transcript's first run is in), then true until `open` turns false again.
 * A panel mounted while `open` is already true draws at once, and later runs (edits, presets)
 * pass straight through: only the first render of a newly loaded transcript is staged.
 *
 * Why: that first render mounted the budget, timeline, table and hidden views in one task
 * (React 20–30 ms plus Chromium's layout 20–45 ms for a 1 MB paste, issue 14). Each stage waits
 * for a frame and then a task of its own, so the budget paints first and the rest follows in
 * smaller tasks.
 */
export function useMountGate(open: boolean, frames: number): boolean {
  const [ready, setReady] = useState(open)
  const [wasOpen, setWasOpen] = useState(open)
  // Closing (a new load cleared the run) re-arms the gate; adjusted while rendering, as React
  // recommends for state derived from a prop, not in an effect (one render less).
  if (open !== wasOpen) {
    setWasOpen(open)
    if (!open) setReady(false)
  }
  useEffect(() => {
    if (!open || ready) return
    let left = frames
    let frame = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const step = () => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          left -= 1
          if (left <= 0) setReady(true)
          else step()
        }, 0)
      })
    }
    step()
    return () => {
      cancelAnimationFrame(frame)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [open, ready, frames])
  return !open || ready
}
