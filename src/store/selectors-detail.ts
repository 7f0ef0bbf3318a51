/**
 * The detail drawer's data: one group before/after the latest run, asked of the worker whenever
 * the selection, the character limit or the run summary changes. Replies to superseded requests
 * are dropped (the client makes them stale; a late one is also ignored here).
 */
import { useMemo } from 'react'
import type { GroupDetail } from '../worker/protocol.ts'
import { useRunSummary } from './selectors.ts'
import { useEngineRequest } from './useEngineRequest.ts'

export type GroupDetailState =
  | { readonly status: 'idle' }
  /** `detail` is the previous reply for the same group (kept on screen, dimmed), if any. */
  | { readonly status: 'loading'; readonly detail: GroupDetail | null }
  | { readonly status: 'ready'; readonly detail: GroupDetail }
  | { readonly status: 'error'; readonly message: string }

/** Ask for `groupId` with text cut at `maxChars` (null: nothing selected, nothing asked). */
export function useGroupDetail(groupId: string | null, maxChars: number): GroupDetailState {
  const summary = useRunSummary()
  const params = useMemo(
    () => (groupId === null ? null : { groupId, maxChars }),
    [groupId, maxChars],
  )
  // Asked again whenever a new run summary arrives: its `after` side changed.
  const { state, last } = useEngineRequest('detail', { auto: params, revision: summary })
  switch (state.status) {
    case 'idle':
      return { status: 'idle' }
    case 'error':
      return { status: 'error', message: state.message }
    case 'done':
      return { status: 'ready', detail: state.reply }
    case 'running':
      return { status: 'loading', detail: last?.params.groupId === groupId ? last.reply : null }
    default: {
      const unknownState: never = state
      return unknownState
    }
  }
}
