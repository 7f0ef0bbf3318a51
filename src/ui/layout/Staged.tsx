import type { ReactNode } from 'react'
import { useHasRun } from '../../store/index.ts'
import { useMountGate } from '../lib/useMountGate.ts'

/**
 * Draws `children` `frames` frames after a newly loaded transcript's first run is in (see
 * `useMountGate`); before any run they draw as they are (their own empty state). While held
 * back nothing is drawn: the slot keeps its size from the layout's CSS, so nothing moves.
 */
export function Staged({
  frames,
  children,
}: {
  readonly frames: number
  readonly children: ReactNode
}) {
  const ready = useMountGate(useHasRun(), frames)
  return ready ? children : null
}
