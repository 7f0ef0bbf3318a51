/**
 * The sweep request of the panel: progress, cancel, and the latest result (kept while a new one
 * runs, dropped once another transcript is loaded).
 */
import { useCallback, useState } from 'react'
import { failureStatus } from '../../lib/requestFailure.ts'
import { useEngineRequest, useLoadedReport } from '../../../store/index.ts'
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
  const { state, last, send, cancel } = useEngineRequest('sweep')
  // What each sweep was asked about beyond its params (the label, the transcript), by params.
  const [asked] = useState(() => new WeakMap<object, { label: string; transcript: unknown }>())

  const run = useCallback(
    (config: unknown, path: string, label: string, values: readonly number[], withCost = false) => {
      const params = { config, path, values, ...(withCost ? { withCost: true } : {}) }
      asked.set(params, { label, transcript })
      void send(params)
    },
    [asked, send, transcript],
  )

  const status: SweepStatus =
    state.status === 'running'
      ? { kind: 'running', done: state.progress?.done ?? 0, total: state.progress?.total ?? 0 }
      : state.status === 'error'
        ? failureStatus(state, 'Nothing was swept:')
        : { kind: 'idle' }
  const about = last ? asked.get(last.params) : undefined
  // A sweep of another transcript is dropped; the latest stays on screen while a new one runs.
  const result =
    last && about && about.transcript === transcript
      ? { path: last.reply.path, label: about.label, points: last.reply.points, transcript }
      : null
  return { status, result, run, cancel }
}
