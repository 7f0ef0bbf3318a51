/**
 * The one typed message map between the UI thread and the engine worker.
 *
 * Every message is `{type, id, …payload}`: `id` is the request id chosen by the client, and every
 * reply carries the id of the request it answers so the client can resolve the right promise and
 * drop replies to requests that a newer one made stale. Payloads are typed from the two maps below
 * (TanStack `EventClient<EventMap>` style) so neither side ever switches on an untyped `e.data`.
 *
 * Only plain, structured-clone-safe data crosses: the parsed conversation stays in the worker.
 */
import type { InspectReport } from '../engine/inspect-types.ts'
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { Detection, ParseWarning } from '../formats/types.ts'

/** Bump when a message shape changes; the client refuses a worker that speaks another version. */
export const PROTOCOL_VERSION = 1

/** At most this many warnings cross the boundary; `warningCount` still says how many there were. */
export const MAX_WARNINGS = 200

/** Where a load is; `done`/`total` count phases so the UI can draw one bar across all of them. */
export type LoadPhase = 'parse' | 'estimate' | 'tokenizer' | 'count' | 'done'

export const LOAD_PHASES: readonly LoadPhase[] = ['parse', 'estimate', 'tokenizer', 'count', 'done']

/** A problem with a position, as the importers report it (1-based line, 0-based offset). */
export interface WireProblem {
  readonly line: number
  readonly offset: number
  readonly message: string
}

/** A short excerpt of one message, so the user can tell at a glance what they loaded. */
export interface MessagePreview {
  readonly id: string
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly label: string
  readonly text: string
  readonly truncated: boolean
}

/** Requests: the UI thread → the worker. */
export interface ToWorkerMap {
  /** Detect (unless `format` overrides), parse, estimate, then count exactly. */
  load: { readonly text: string; readonly fileName?: string; readonly format?: FormatId }
  /** Abandon request `id`: no further replies for it are wanted. */
  cancel: Record<never, never>
  /** Re-count the conversation of the latest load with another tokenizer. */
  count: { readonly tokenizer: TokenizerId }
}

/** Replies: the worker → the UI thread. */
export interface FromWorkerMap {
  progress: { readonly phase: LoadPhase; readonly done: number; readonly total: number }
  /** Detection + parse outcome + the instant (chars/4) report. */
  loaded: {
    readonly protocol: number
    readonly fileName?: string
    readonly detection: Detection | null
    /** Every importer's opinion, best first: the choices of the format override. */
    readonly candidates: readonly Detection[]
    /** Every format the importers know, so the override can force one detection did not propose. */
    readonly formats: readonly FormatId[]
    /** The first `MAX_WARNINGS` warnings. */
    readonly warnings: readonly ParseWarning[]
    readonly warningCount: number
    /** Set when the transcript could not be read at all; `report` is then null. */
    readonly error: WireProblem | null
    readonly report: InspectReport | null
    /** Short excerpts (first user / last assistant message); the conversation itself stays put. */
    readonly preview: readonly MessagePreview[]
    readonly ms: number
  }
  /** The same report with exact counts (or whichever tokenizer `count` asked for). */
  counted: { readonly tokenizer: TokenizerId; readonly report: InspectReport; readonly ms: number }
  /** The request failed unexpectedly (a bug, not a bad transcript: those come as `loaded.error`). */
  error: { readonly message: string; readonly line?: number; readonly offset?: number }
}

type Envelope<M, K extends keyof M> = { readonly type: K; readonly id: number } & M[K]

export type ToWorker = { [K in keyof ToWorkerMap]: Envelope<ToWorkerMap, K> }[keyof ToWorkerMap]
export type FromWorker = {
  [K in keyof FromWorkerMap]: Envelope<FromWorkerMap, K>
}[keyof FromWorkerMap]

export type ToWorkerOf<K extends ToWorker['type']> = Extract<ToWorker, { type: K }>
export type FromWorkerOf<K extends FromWorker['type']> = Extract<FromWorker, { type: K }>

export type LoadedMessage = FromWorkerOf<'loaded'>
export type CountedMessage = FromWorkerOf<'counted'>
export type ProgressMessage = FromWorkerOf<'progress'>
