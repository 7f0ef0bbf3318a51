/**
 * The detail drawer's data: one group before/after the latest run, asked of the worker whenever
 * the selection, the character limit or the run summary changes. Replies to superseded requests
 * are dropped (the client makes them stale; a late one is also ignored here).
 */
import { useEffect, useState } from 'react'
import { isStale } from '../worker/client.ts'
import type { GroupDetail, RunSummary } from '../worker/protocol.ts'
import { engineClient } from './engine.ts'
import { useRunSummary } from './selectors.ts'

export type GroupDetailState =
  | { readonly status: 'idle' }
  /** `detail` is the previous reply for the same group (kept on screen, dimmed), if any. */
  | { readonly status: 'loading'; readonly detail: GroupDetail | null }
  | { readonly status: 'ready'; readonly detail: GroupDetail }
  | { readonly status: 'error'; readonly message: string }

interface Reply {
  readonly groupId: string
  readonly maxChars: number
  readonly summary: RunSummary | null
  readonly detail: GroupDetail | null
  readonly error: string | null
}

/** Ask for `groupId` with text cut at `maxChars` (null: nothing selected, nothing asked). */
export function useGroupDetail(groupId: string | null, maxChars: number): GroupDetailState {
  const summary = useRunSummary()
  const [reply, setReply] = useState<Reply | null>(null)

  useEffect(() => {
    if (groupId === null) return
    const request = engineClient().detail(groupId, maxChars)
    let live = true
    const settle = (detail: GroupDetail | null, error: string | null) => {
      if (live) setReply({ groupId, maxChars, summary, detail, error })
    }
    request.promise.then(
      (detail) => settle(detail, null),
      (error: unknown) => {
        if (isStale(error)) return
        settle(null, error instanceof Error ? error.message : String(error))
      },
    )
    return () => {
      live = false
      request.cancel()
    }
  }, [groupId, maxChars, summary])

  if (groupId === null) return { status: 'idle' }
  const current =
    reply !== null &&
    reply.groupId === groupId &&
    reply.maxChars === maxChars &&
    reply.summary === summary
  if (current && reply.error !== null) return { status: 'error', message: reply.error }
  if (current && reply.detail !== null) return { status: 'ready', detail: reply.detail }
  const previous = reply?.groupId === groupId ? reply.detail : null
  return { status: 'loading', detail: previous }
}
