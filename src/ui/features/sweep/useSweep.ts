/**
 * The sweep request of the panel: progress, cancel, and the latest result (kept while a new one
 * runs, dropped once another transcript is loaded).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { failureStatus } from '../../lib/requestFailure.ts'
import { requestSweep, useLoadedReport } from '../../../store/index.ts'
import type { ConfigIssue, SweepPoint } from '../../../store/index.ts'

export interface SweepResult {
  readonly path: string
  readonly label: string
  readonly points: readonly SweepPoint[]
  /** The transcript it was computed on (see `useLoadedReport`). */
  readonly transcript: unknown
}

export type SweepStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly done: number; readonly total: number }
  | { readonly kind: 'error'; readonly message: string; readonly issues: readonly ConfigIssue[] }

export interface Sweep {
  readonly status: SweepStatus
  readonly result: SweepResult | null
  /** `withCost`: price every point too (a replay each; slower). */
  run(
    config: unknown,
    path: string,
    label: string,
    values: readonly number[],
    withCost?: boolean,
  ): void
  cancel(): void
}

export function useSweep(): Sweep {
  const transcript = useLoadedReport()
  const [status, setStatus] = useState<SweepStatus>({ kind: 'idle' })
  const [result, setResult] = useState<SweepResult | null>(null)
  const active = useRef<{ readonly id: number; cancel(): void } | null>(null)

  // Leaving the page (or the panel) abandons the sweep: its points would have nowhere to go.
  useEffect(() => () => active.current?.cancel(), [])

  const run = useCallback(
    (config: unknown, path: string, label: string, values: readonly number[], withCost = false) => {
      active.current?.cancel()
      const request = requestSweep(
        config,
        path,
        values,
        (done, total) => {
          if (active.current?.id === request.id) setStatus({ kind: 'running', done, total })
        },
        withCost,
      )
      active.current = request
      setStatus({ kind: 'running', done: 0, total: values.length })
      request.promise.then(
        (swept) => {
          if (active.current?.id !== request.id) return
          active.current = null
          setResult({ path, label, points: swept.points, transcript })
          setStatus({ kind: 'idle' })
        },
        (error: unknown) => {
          if (active.current?.id !== request.id) return
          active.current = null
          setStatus(failureStatus(error, 'Nothing was swept:'))
        },
      )
    },
    [transcript],
  )

  const cancel = useCallback(() => {
    const request = active.current
    active.current = null
    request?.cancel()
    setStatus({ kind: 'idle' })
  }, [])

  return {
    status,
    result: result && result.transcript === transcript ? result : null,
    run,
    cancel,
  }
}
