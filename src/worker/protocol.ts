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

/**
 * Where a run is: waiting for the load's exact count, pricing the conversation (first run on it
 * only), compacting, replaying (when asked), condensing the result.
 */
export type RunPhase = 'wait' | 'prepare' | 'compact' | 'replay' | 'summarize' | 'done'

export const RUN_PHASES: readonly RunPhase[] = [
  'wait',
  'prepare',
  'compact',
  'replay',
  'summarize',
  'done',
]

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

/** Status of one group after a run, for the table and the context strip. */
export type GroupStatus = 'kept' | 'excluded' | 'stubbed' | 'trimmed' | 'summarised' | 'protected'

/** A decision as the UI needs it (no replacement payloads: the detail view asks for those later). */
export interface WireDecision {
  readonly kind: 'exclude' | 'stub' | 'trim' | 'insert' | 'protected' | 'skip' | 'failed_open'
  readonly strategy: string
  readonly step: number
  readonly reason: string
  readonly detail: string
  readonly groupId: string
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly fixed?: string
  readonly round?: number
}

/** Tokens by budget category; `stubs` holds stubs, trims and inserted summaries after a run. */
export type BudgetCategories = Readonly<Record<string, number>>

/**
 * The result of running a config on the loaded conversation. Per-group and per-call series are
 * typed arrays, transferred (not copied) to the UI thread.
 */
export interface RunSummary {
  readonly configName: string
  /** The counter every figure was priced with (the load's exact one once it is in). */
  readonly tokenizer: TokenizerId
  readonly exact: boolean
  readonly tokens: {
    readonly before: number
    readonly after: number
    readonly window: number
    readonly reservedOutput: number
    readonly buffer: number
    readonly usable: number
  }
  readonly budget: { readonly before: BudgetCategories; readonly after: BudgetCategories }
  readonly groups: {
    readonly ids: readonly string[]
    readonly kinds: readonly string[]
    readonly status: readonly GroupStatus[]
    readonly tokensBefore: Float64Array
    readonly tokensAfter: Float64Array
  }
  /** The first `MAX_DECISIONS` decisions; `decisionCount` says how many there were. */
  readonly decisions: readonly WireDecision[]
  readonly decisionCount: number
  readonly changes: number
  readonly invariants: {
    readonly ok: boolean
    readonly checks: readonly {
      readonly id: string
      readonly ok: boolean
      readonly detail: string
      readonly offenders: readonly string[]
    }[]
  }
  readonly steps: readonly {
    readonly index: number
    readonly strategy: string
    readonly status: string
    readonly why: string
  }[]
  /** Per model call: message index, context before/after, reported (NaN when absent). */
  readonly replay: {
    readonly index: Int32Array
    readonly before: Float64Array
    readonly after: Float64Array
    readonly reported: Float64Array
    readonly fired: readonly (readonly string[])[]
  } | null
  readonly ms: number
}

/** At most this many decisions cross the boundary with a run. */
export const MAX_DECISIONS = 5000

/** Requests: the UI thread → the worker. */
export interface ToWorkerMap {
  /** Detect (unless `format` overrides), parse, estimate, then count exactly. */
  load: { readonly text: string; readonly fileName?: string; readonly format?: FormatId }
  /** Abandon request `id`: no further replies for it are wanted. */
  cancel: Record<never, never>
  /** Re-count the conversation of the latest load with another tokenizer. */
  count: { readonly tokenizer: TokenizerId }
  /**
   * Run a compaction config (our versioned JSON, or a preset id) on the latest load, with replay
   * when asked. A newer `run` makes an older one stale.
   */
  run: { readonly config: unknown; readonly preset?: string; readonly replay: boolean }
}

/** Replies: the worker → the UI thread. */
export interface FromWorkerMap {
  progress: { readonly phase: LoadPhase; readonly done: number; readonly total: number }
  /** Progress of a `run`; a separate message so load progress keeps its own phase type. */
  runProgress: { readonly phase: RunPhase; readonly done: number; readonly total: number }
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
  /** A run finished. */
  ran: { readonly summary: RunSummary }
  /** The config was invalid: every problem with the path where it is; nothing ran. */
  configInvalid: { readonly issues: readonly { readonly path: string; readonly message: string }[] }
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
export type RanMessage = FromWorkerOf<'ran'>
export type RunProgressMessage = FromWorkerOf<'runProgress'>
export type ConfigInvalidMessage = FromWorkerOf<'configInvalid'>
