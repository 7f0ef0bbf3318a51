/**
 * What a panel shows when its worker request failed: nothing when it was merely superseded, the
 * config's issues (with paths) when the worker refused the config, else the error's message.
 */
import { ConfigInvalidError, isStale } from '../../store/index.ts'
import type { ConfigIssue } from '../../store/index.ts'

export type FailureStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'error'; readonly message: string; readonly issues: readonly ConfigIssue[] }

/** `refused` heads the list of issues, e.g. "Nothing was swept:". */
export function failureStatus(error: unknown, refused: string): FailureStatus {
  if (isStale(error)) return { kind: 'idle' }
  if (error instanceof ConfigInvalidError) {
    return { kind: 'error', message: refused, issues: error.issues }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { kind: 'error', message, issues: [] }
}
