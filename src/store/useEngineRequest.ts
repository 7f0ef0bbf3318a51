/**
 * The one request lifecycle of the views: a worker request's running state, progress, reply and
 * failure, with cancel on a newer request, on `cancel()` and on unmount. Features never write
 * their own; they call `send(params)` (imperative: sweep, compare, import, table rows) or pass
 * `auto` params that are asked for whenever they (or `revision`) change (detail, export).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { ConfigInvalidError, isStale } from '../worker/client.ts'
import type { ConfigIssue, Params, ProgressOf, Reply, RequestKind } from '../worker/protocol.ts'
import { useEngineClient } from './context.ts'

export type EngineRequestState<K extends RequestKind> =
  | { readonly status: 'idle' }
  | { readonly status: 'running'; readonly progress: ProgressOf<K> | null }
  | { readonly status: 'done'; readonly reply: Reply<K> }
  | ({
      readonly status: 'error'
    } & Failure)

/** How one `send` ended; `stale`: a newer request (or a cancel) overtook it. */
export type Settled<K extends RequestKind> =
  | { readonly status: 'done'; readonly reply: Reply<K> }
  | ({ readonly status: 'error' } & Failure)
  | { readonly status: 'stale' }

export interface EngineRequest<K extends RequestKind> {
  readonly state: EngineRequestState<K>
  /** The params (and revision) the state belongs to; null before the first request. */
  readonly params: Params<K> | null
  readonly revision: unknown
  /** The latest reply (kept while a newer request runs, e.g. to dim it), and its params. */
  readonly last: { readonly reply: Reply<K>; readonly params: Params<K> } | null
  send(params: Params<K>, revision?: unknown): Promise<Settled<K>>
  cancel(): void
}

export interface EngineRequestOptions<K extends RequestKind> {
  /** Requests of one lane supersede each other (default: the kind's lane, see the client). */
  readonly lane?: string
  /** Ask with these params whenever they change (null: nothing to ask); memoise them. */
  readonly auto?: Params<K> | null
  /** Ask `auto` again when this changes (e.g. a new run summary). */
  readonly revision?: unknown
}

interface Snapshot<K extends RequestKind> {
  readonly state: EngineRequestState<K>
  readonly params: Params<K> | null
  readonly revision: unknown
  readonly last: EngineRequest<K>['last']
}

/** Why a request failed. */
export interface Failure {
  readonly message: string
  /** The worker refused the config: nothing ran; `issues` has every problem and its path. */
  readonly refused: boolean
  readonly issues: readonly ConfigIssue[]
}

/** What a failure says: the config's issues when it was refused, else the error's message. */
export function failureOf(error: unknown): Failure {
  if (error instanceof ConfigInvalidError)
    return { message: error.message, refused: true, issues: error.issues }
  const message = error instanceof Error ? error.message : String(error)
  return { message, refused: false, issues: [] }
}

export function useEngineRequest<K extends RequestKind>(
  kind: K,
  options: EngineRequestOptions<K> = {},
): EngineRequest<K> {
  const client = useEngineClient()
  const { lane, auto, revision } = options
  const [snap, setSnap] = useState<Snapshot<K>>({
    state: { status: 'idle' },
    params: null,
    revision: undefined,
    last: null,
  })
  const active = useRef<AbortController | null>(null)

  const start = useCallback(
    (params: Params<K>, rev: unknown, markRunning: boolean): Promise<Settled<K>> => {
      active.current?.abort()
      const controller = new AbortController()
      active.current = controller
      const mine = () => active.current === controller
      if (markRunning) {
        setSnap((s) => ({
          ...s,
          state: { status: 'running', progress: null },
          params,
          revision: rev,
        }))
      }
      return client
        .request(kind, params, {
          signal: controller.signal,
          ...(lane !== undefined ? { lane } : {}),
          onProgress: (progress) => {
            if (mine()) setSnap((s) => ({ ...s, state: { status: 'running', progress } }))
          },
        })
        .then(
          (reply): Settled<K> => {
            if (!mine()) return { status: 'stale' }
            active.current = null
            setSnap({
              state: { status: 'done', reply },
              params,
              revision: rev,
              last: { reply, params },
            })
            return { status: 'done', reply }
          },
          (error: unknown): Settled<K> => {
            if (isStale(error) || !mine()) return { status: 'stale' }
            active.current = null
            const failure = failureOf(error)
            setSnap((s) => ({
              ...s,
              state: { status: 'error', ...failure },
              params,
              revision: rev,
            }))
            return { status: 'error', ...failure }
          },
        )
    },
    [client, kind, lane],
  )

  const send = useCallback((params: Params<K>, rev?: unknown) => start(params, rev, true), [start])

  const cancel = useCallback(() => {
    const controller = active.current
    active.current = null
    controller?.abort()
    if (controller) setSnap((s) => ({ ...s, state: { status: 'idle' } }))
  }, [])

  // Leaving the view abandons its request: the reply would have nowhere to go.
  useEffect(() => () => active.current?.abort(), [])

  useEffect(() => {
    if (auto === undefined || auto === null) return
    // The running state of an auto request is derived below, not set here.
    void start(auto, revision, false)
  }, [auto, revision, start])

  if (auto !== undefined) {
    // An answer for other params or an older revision is never shown as the current one.
    if (auto === null) return { ...snap, state: { status: 'idle' }, send, cancel }
    if (snap.params !== auto || snap.revision !== revision) {
      return { ...snap, state: { status: 'running', progress: null }, send, cancel }
    }
  }
  return { ...snap, send, cancel }
}
