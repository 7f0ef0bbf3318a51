/**
 * The envelope every worker speaks, typed by a request map: the session's `RequestMap` for the
 * engine worker (src/session/requests.ts: each request's params, reply and progress), the
 * `FleetRequestMap` below for the fleet pool's workers. The client sends `{kind: 'request', id,
 * request: K, params}`; the worker answers with progress events, then one `reply` — or `invalid`
 * (a config's issues with their paths) or `error` — carrying the same id. Only plain,
 * structured-clone-safe data crosses (buffers transferred, not copied).
 */
import type { FleetOutcome } from '../fleet/types.ts'
import type { Progress, RequestMap, RequestMapOf } from '../session/requests.ts'
import type { ConfigIssue } from '../session/types.ts'

export type * from '../session/types.ts'
export * from '../session/requests.ts'

/** Bump when a message shape changes; the client refuses a worker that speaks another version. */
export const PROTOCOL_VERSION = 7

/** The fleet pool's workers: one file at a time, with the same chain `compaction-lab evaluate` runs. */
export interface FleetRequestMap {
  /** Every conversation of one file under the config; a file's failure is one of its outcomes. */
  evaluate: {
    params: {
      readonly name: string
      /** Bytes (transferred), or a picked file's Blob: the worker reads it, not the page. */
      readonly bytes: ArrayBuffer | Blob
      /** The config object (validated in the worker), or null with `preset`. */
      readonly config: unknown
      readonly preset?: string
    }
    reply: readonly FleetOutcome[]
    progress: Progress
  }
}

/** UI thread → worker. */
export type ToWorker<M extends RequestMapOf<M> = RequestMap> =
  | {
      [K in keyof M]: {
        readonly kind: 'request'
        readonly id: number
        readonly request: K
        readonly params: M[K]['params']
      }
    }[keyof M]
  /** Abandon request `id`: it stops at its next checkpoint and posts nothing more. */
  | { readonly kind: 'cancel'; readonly id: number }

/** Worker → UI thread; every message carries the id of the request it answers. */
export type FromWorker<M extends RequestMapOf<M> = RequestMap> =
  | {
      [K in keyof M]: {
        readonly kind: 'reply'
        readonly id: number
        readonly request: K
        readonly protocol: number
        readonly reply: M[K]['reply']
      }
    }[keyof M]
  | { readonly kind: 'progress'; readonly id: number; readonly progress: Progress<string> }
  /** The config was invalid: every problem with the path where it is; nothing ran. */
  | { readonly kind: 'invalid'; readonly id: number; readonly issues: readonly ConfigIssue[] }
  /** The request failed (nothing loaded, nothing ran, or a bug; bad transcripts come as `Loaded.error`). */
  | { readonly kind: 'error'; readonly id: number; readonly message: string }
