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
import type { CsvColumn } from '../export/reports.ts'
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { FileItem, ItemsKind } from '../formats/items.ts'
export type { FileItem, ItemsKind } from '../formats/items.ts'
import type { Detection, ParseWarning } from '../formats/types.ts'
import type {
  CompareDifference,
  CompareSide,
  ConfigExportTarget,
  ExportFile,
  GroupDetail,
  SweepPoint,
  WirePreset,
  WireStrategy,
  WireUpstreamMarker,
} from './protocol-payloads.ts'

export type * from './protocol-payloads.ts'
export type * from './protocol-risk.ts'
import type { RunRisk } from './protocol-risk.ts'

/** Bump when a message shape changes; the client refuses a worker that speaks another version. */
export const PROTOCOL_VERSION = 3

/** At most this many warnings cross the boundary; `warningCount` still says how many there were. */
export const MAX_WARNINGS = 200

/** Where a load is; `done`/`total` count phases so the UI can draw one bar across all of them. */
export type LoadPhase = 'parse' | 'estimate' | 'tokenizer' | 'count' | 'done'

export const LOAD_PHASES: readonly LoadPhase[] = ['parse', 'estimate', 'tokenizer', 'count', 'done']

/**
 * Where a run is: waiting for the load's exact count, pricing the conversation (first run on it
 * only), compacting, replaying (when asked), condensing the result.
 */
export type RunPhase = 'wait' | 'prepare' | 'compact' | 'summarize' | 'replay' | 'done'

/**
 * In order. The summary (`ran`) is posted after `summarize`, before the replay: the budget, strip
 * and table update at once, and the timeline follows when `replayed` arrives.
 */
export const RUN_PHASES: readonly RunPhase[] = [
  'wait',
  'prepare',
  'compact',
  'summarize',
  'replay',
  'done',
]

/** A problem with a position, as the importers report it (1-based line, 0-based offset). */
export interface WireProblem {
  readonly line: number
  readonly offset: number
  readonly message: string
}

/** The conversations of a multi-item file (tau-bench, aider sessions, sub-agent runs, captures). */
export interface LoadedItems {
  readonly kind: ItemsKind
  /** "200 tau-bench trajectories" */
  readonly label: string
  readonly items: readonly FileItem[]
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
import type { ReconciliationSummary } from '../engine/accounting/index.ts'
import type { SessionCost } from '../engine/cost/summary.ts'
export type { SessionCost }
export type { ReconciliationSummary }

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
    /** Role of the group's first message (`system` for the top-level system prompt). */
    readonly roles: readonly string[]
    /** Tool names called in the group, comma-separated ('' when none). */
    readonly tools: readonly string[]
    /** What the group's first tool call reads or touches (a path, a search, a command), or ''. */
    readonly resources: readonly string[]
    /** Turn number of each group (0 before the first real user message). */
    readonly turns: Int32Array
    /** Index of each group's first message in the conversation (-1 for the system group). */
    readonly firstMessage: Int32Array
    readonly messageCounts: Int32Array
  }
  /** Compactions the source system already did (found in the transcript), by message index. */
  readonly upstream: readonly WireUpstreamMarker[]
  /**
   * Where `tokens` come from: the figure in words, and how each call's context was reconciled
   * with the transcript's reported usage (the same summary `inspect --json` prints).
   */
  readonly accounting: {
    readonly figure: string
    readonly reconciliation: ReconciliationSummary
    /** The price the session's model is costed at (null: no price known; set one in the config). */
    readonly price: {
      readonly model: string
      readonly name: string
      readonly source: string
      readonly checked: string
      readonly overridden: boolean
      readonly input: number
      readonly cacheWrite5m: number
      readonly cacheWrite1h: number
      readonly cacheRead: number
      readonly output: number
    } | null
    /** Whether prompt caching is modelled, and why. */
    readonly caching: string
  }
  /** Token levels at which a pipeline step fires (from `tokens`/`window_fraction` triggers). */
  readonly triggers: readonly {
    readonly step: number
    readonly strategy: string
    readonly tokens: number
  }[]
  /** The first `MAX_DECISIONS` decisions; `decisionCount` says how many there were. */
  readonly decisions: readonly WireDecision[]
  readonly decisionCount: number
  readonly changes: number
  /** Why the run changed nothing, in one line (null when it changed something). */
  readonly noChange: string | null
  readonly invariants: {
    readonly ok: boolean
    readonly checks: readonly {
      readonly id: string
      readonly ok: boolean
      readonly detail: string
      readonly offenders: readonly string[]
      /** The groups the offenders belong to (message and part offenders mapped to their group). */
      readonly groups?: readonly string[]
    }[]
  }
  readonly steps: readonly {
    readonly index: number
    readonly strategy: string
    readonly status: string
    readonly why: string
  }[]
  /**
   * Per model call: message index, context before/after, reported (NaN when absent). Null when
   * no replay was asked for, or while it is still being computed (`replayPending`).
   */
  readonly replay: ReplaySeries | null
  /** A `replayed` message for this run will follow (the replay runs after the summary is sent). */
  readonly replayPending: boolean
  /** Removed content the agent used later in the real transcript (engine `risk/`). */
  readonly risk: RunRisk
  readonly ms: number
}

/** The replay as typed arrays, one entry per model call. */
export interface ReplaySeries {
  readonly index: Int32Array
  readonly before: Float64Array
  readonly after: Float64Array
  readonly reported: Float64Array
  readonly fired: readonly (readonly string[])[]
  /** USD per call, uncompacted and under the config (NaN: no price for the call's model). */
  readonly costBefore: Float64Array
  readonly costAfter: Float64Array
  /** Tokens the config made the provider write again at each call (cache re-writes). */
  readonly rewrites: Float64Array
  /** The session's cost, summed over the calls, with the cache model's check (null: none priced). */
  readonly cost: SessionCost
}

/** At most this many decisions cross the boundary with a run. */
export const MAX_DECISIONS = 5000

/** Requests: the UI thread → the worker. */
export interface ToWorkerMap {
  /** Detect (unless `format` overrides), parse, estimate, then count exactly. */
  load: {
    /** Pasted text or a sample; files come as `bytes` instead. */
    readonly text?: string
    /**
     * A file's UTF-8 bytes, transferred (not copied): the main thread never decodes or clones a
     * large transcript; the worker decodes it.
     */
    readonly bytes?: ArrayBuffer
    readonly fileName?: string
    readonly format?: FormatId
    /** Load only this conversation of a multi-item file (0-based; see `LoadedItems`). */
    readonly item?: number
  }
  /** Abandon request `id`: no further replies for it are wanted. */
  cancel: Record<never, never>
  /** Re-count the conversation of the latest load with another tokenizer. */
  count: { readonly tokenizer: TokenizerId }
  /**
   * Run a compaction config (our versioned JSON, or a preset id) on the latest load, with replay
   * when asked. A newer `run` makes an older one stale.
   */
  run: { readonly config: unknown; readonly preset?: string; readonly replay: boolean }
  /**
   * One group before and after the latest run (text cut at `maxChars` per part; ask again with a
   * larger limit for "show more").
   */
  detail: { readonly groupId: string; readonly maxChars: number }
  /** Presets, strategies (with param JSON Schemas) and the config JSON Schema, for the editor. */
  describe: Record<never, never>
  /** Run `config` once per value with the number at `path` (`pipeline[1].params.keep`) set. */
  sweep: {
    readonly config: unknown
    readonly path: string
    readonly values: readonly number[]
    /** Also price each point (a replay per point: slower). */
    readonly withCost?: boolean
  }
  /** Run two configs (no replay) and list the groups whose decisions differ. */
  compare: { readonly a: unknown; readonly b: unknown }
  /** Translate a config (or `preset`) for a target system, or write it as our versioned JSON. */
  exportConfig: {
    readonly config: unknown
    readonly preset?: string
    readonly target: ConfigExportTarget
  }
  /** The latest run's compacted transcript, written in the loaded transcript's own format. */
  exportTranscript: Record<never, never>
  /**
   * The latest run's report: the CLI's JSON report, or one CSV row per decision with the chosen
   * `columns` in their order (default: the CLI's default columns).
   */
  exportReport: { readonly format: 'json' | 'csv'; readonly columns?: readonly CsvColumn[] }
  /** Read a config file's text: migrated and validated (issues come as `configInvalid`). */
  importConfig: { readonly text: string }
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
    /** The file's conversations when it holds several (the import panel's item picker). */
    readonly items: LoadedItems | null
    /** Which item is loaded (0-based), or null when the file was read as a whole. */
    readonly item: number | null
  }
  /** The same report with exact counts (or whichever tokenizer `count` asked for). */
  counted: { readonly tokenizer: TokenizerId; readonly report: InspectReport; readonly ms: number }
  /** A run finished (its replay, when asked for, follows as `replayed`). */
  ran: { readonly summary: RunSummary }
  /** Progress of the replay that follows a run: `done` of `total` model calls. */
  replayProgress: { readonly done: number; readonly total: number }
  /** The replay of the run with the same id. */
  replayed: { readonly replay: ReplaySeries }
  detailed: { readonly detail: GroupDetail }
  described: {
    readonly presets: readonly WirePreset[]
    readonly strategies: readonly WireStrategy[]
    readonly configSchema: unknown
  }
  /** Progress of a sweep: `done` of `total` points computed. */
  sweepProgress: { readonly done: number; readonly total: number }
  swept: { readonly path: string; readonly points: readonly SweepPoint[] }
  compared: {
    readonly a: CompareSide
    readonly b: CompareSide
    readonly differing: readonly CompareDifference[]
  }
  /** The answer to `exportConfig`, `exportTranscript` and `exportReport`. */
  exported: { readonly file: ExportFile }
  /** An imported config, validated, defaults filled, as our versioned JSON object. */
  configImported: { readonly config: unknown }
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
export type DescribedMessage = FromWorkerOf<'described'>
export type SweptMessage = FromWorkerOf<'swept'>
export type ComparedMessage = FromWorkerOf<'compared'>
export type ExportedMessage = FromWorkerOf<'exported'>
