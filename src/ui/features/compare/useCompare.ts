/** The compare request of the panel: running flag, problems, and the latest result. */
import { useCallback, useState } from 'react'
import { failureStatus } from '../../lib/requestFailure.ts'
import { useEngineRequest, useLoadedReport } from '../../../store/index.ts'
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

interface Asked {
  readonly labels: CompareResult['labels']
  readonly transcript: unknown
}

export function useCompare() {
  const transcript = useLoadedReport()
  const { state, last, send } = useEngineRequest('compare')
  // The labels and transcript each comparison was asked with, by its params.
  const [asked] = useState(() => new WeakMap<object, Asked>())

  const run = useCallback(
    (a: unknown, b: unknown, labels: CompareResult['labels']) => {
      const params = { a, b }
      asked.set(params, { labels, transcript })
      void send(params)
    },
    [asked, send, transcript],
  )

  const status: CompareStatus =
    state.status === 'running'
      ? { kind: 'running' }
      : state.status === 'error'
        ? failureStatus(state, 'Nothing was compared:')
        : { kind: 'idle' }
  const about = last ? asked.get(last.params) : undefined
  const result: CompareResult | null =
    last && about && about.transcript === transcript ? { ...last.reply, ...about } : null
  return { status, result, run }
}
