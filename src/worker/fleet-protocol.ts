/**
 * The fleet workers' messages (issue 16), apart from the engine worker's protocol.ts so the two
 * can evolve separately; each pool worker evaluates one file at a time. Every message carries
 * the id of the task it belongs to; bytes are transferred, not copied, and a file still on disk
 * goes as its Blob (a handle), so the worker, not the page's main thread, reads it.
 */
import type { ConfigIssue } from '../config/validate.ts'
import type { FleetOutcome } from '../fleet/types.ts'

export type ToFleetWorker =
  | {
      readonly type: 'evaluate'
      readonly id: number
      readonly name: string
      readonly bytes: ArrayBuffer | Blob
      /** The config object (validated in the worker), or null with `preset`. */
      readonly config: unknown
      readonly preset?: string
    }
  | { readonly type: 'cancel'; readonly id: number }

export type FromFleetWorker =
  | {
      readonly type: 'progress'
      readonly id: number
      readonly done: number
      readonly total: number
    }
  | { readonly type: 'evaluated'; readonly id: number; readonly outcomes: readonly FleetOutcome[] }
  | { readonly type: 'invalid'; readonly id: number; readonly issues: readonly ConfigIssue[] }
  | { readonly type: 'cancelled'; readonly id: number }
