/**
 * The fleet workers' messages (issue 16), apart from the engine worker's protocol.ts so the two
 * can evolve separately; each pool worker evaluates one file at a time. Every message carries
 * the id of the task it belongs to; the bytes are transferred, not copied.
 */
import type { ConfigIssue } from '../config/validate.ts'
import type { FleetOutcome } from '../fleet/types.ts'

export type ToFleetWorker =
  | {
      readonly type: 'evaluate'
      readonly id: number
      readonly name: string
      readonly bytes: ArrayBuffer
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
