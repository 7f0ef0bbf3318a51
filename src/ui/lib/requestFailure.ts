/**
 * What a panel shows when its worker request failed: the config's issues (with paths) under the
 * panel's heading when the worker refused the config, else the error's message. (A superseded
 * request never fails: `useEngineRequest` drops it.)
 */
import type { ConfigIssue, Failure } from '../../store/index.ts'

export type FailureStatus = {
  readonly kind: 'error'
  readonly message: string
  readonly issues: readonly ConfigIssue[]
}

/** `refused` heads the list of issues, e.g. "Nothing was swept:". */
export function failureStatus(failure: Failure, refused: string): FailureStatus {
  return failure.refused
    ? { kind: 'error', message: refused, issues: failure.issues }
    : { kind: 'error', message: failure.message, issues: [] }
}
