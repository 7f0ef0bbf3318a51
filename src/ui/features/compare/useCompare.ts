/** The compare request of the panel: running flag, problems, and the latest result. */
import { useCallback, useEffect, useRef, useState } from 'react'
import { failureStatus } from '../../lib/requestFailure.ts'
import { requestCompare, useLoadedReport } from '../../../store/index.ts'
import type { CompareDifference, CompareSide, ConfigIssue } from '../../../store/index.ts'

export interface CompareResult {
  readonly a: CompareSide
  readonly b: CompareSide
  readonly differing: readonly CompareDifference[]
  readonly labels: { readonly a: string; readonly b: string }
  readonly transcript: unknown
}

export type CompareStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'error'; readonly message: string; readonly issues: readonly ConfigIssue[] }

export function useCompare() {
  const transcript = useLoadedReport()
  const [status, setStatus] = useState<CompareStatus>({ kind: 'idle' })
  const [result, setResult] = useState<CompareResult | null>(null)
  const active = useRef<{ readonly id: number; cancel(): void } | null>(null)

  useEffect(() => () => active.current?.cancel(), [])

  const run = useCallback(
    (a: unknown, b: unknown, labels: CompareResult['labels']) => {
      active.current?.cancel()
      const request = requestCompare(a, b)
      active.current = request
      setStatus({ kind: 'running' })
      request.promise.then(
        (compared) => {
          if (active.current?.id !== request.id) return
          active.current = null
          const { a: sa, b: sb, differing } = compared
          setResult({ a: sa, b: sb, differing, labels, transcript })
          setStatus({ kind: 'idle' })
        },
        (error: unknown) => {
          if (active.current?.id !== request.id) return
          active.current = null
          setStatus(failureStatus(error, 'Nothing was compared:'))
        },
      )
    },
    [transcript],
  )

  return {
    status,
    result: result && result.transcript === transcript ? result : null,
    run,
  }
}
