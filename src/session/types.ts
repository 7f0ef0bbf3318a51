/**
 * The session's output types: what a load, a run, a replay and the views' requests produce.
 * Plain, structured-clone-safe data (typed arrays for the long series), so the worker posts them
 * as they are and the CLI prints them; the UI imports them with `import type` only.
 */
import type { ReconciliationSummary } from '../engine/accounting/index.ts'
import type { SessionCost } from '../engine/cost/summary.ts'
import type { InspectReport } from '../engine/inspect-types.ts'
import type { FormatId } from '../engine/model.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { FileItem, ItemsKind } from '../formats/items.ts'
import type { Detection, ParseWarning } from '../formats/types.ts'
import type { RunRisk } from './types-risk.ts'
import type { GroupFacts, RunGroups, WireDecisions } from './types-run.ts'
import type {
  CompareDifference,
  CompareSide,
  SweepPoint,
  WirePreset,
  WireStrategy,
  WireUpstreamMarker,
} from './types-views.ts'

export type * from './types-views.ts'
export type * from './types-risk.ts'
export type * from './types-run.ts'
export { MAX_RISK_ITEMS } from './types-risk.ts'
export type { SessionCost, ReconciliationSummary }
export type { ConfigIssue } from '../config/validate.ts'

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

export type { FileItem, ItemsKind }

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
  /** Per-group columns of this run; the conversation's own facts came with the load. */
  readonly groups: RunGroups
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
  /** The first `MAX_DECISIONS` decisions (as columns); `decisionCount` says how many there were. */
  readonly decisions: WireDecisions
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
  /**
   * The first round's result, sent before the idempotence round ran (the app's first paint,
   * issue 14): the invariants lack the `idempotent` check, which the `settle` request brings.
   * When that round changes nothing (the usual case) every figure here is already final; when it
   * does, `settle` brings the whole settled summary. False for every other run.
   */
  readonly settling: boolean
  /**
   * Removed content the agent used later in the real transcript (engine `risk/`). Null when the
   * run deferred it (the app: the budget paints first, the `risk` request brings it next).
   */
  readonly risk: RunRisk | null
  readonly ms: number
}

/**
 * What the idempotence round that follows a `settling` run found (the `settle` request): `same`
 * — it changed nothing, so only the invariants gain their `idempotent` check; `changed` — it
 * changed more, and the settled summary replaces the first one (its risk deferred again).
 */
export type Settled =
  | { readonly kind: 'same'; readonly invariants: RunSummary['invariants']; readonly ms: number }
  | { readonly kind: 'changed'; readonly summary: RunSummary }

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

/** Sentences of a run's decisions, as asked (`sentences`): `detail[k]` is that of `indices[k]`. */
export interface Sentences {
  readonly run: number
  readonly indices: readonly number[]
  readonly detail: readonly string[]
}

/** At most this many decisions cross the boundary with a run. */
export const MAX_DECISIONS = 5000

/** A load's outcome: detection, parse warnings and the instant (chars/4) report, or the error. */
export interface Loaded {
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
  /**
   * The conversation's per-group facts (null or absent when nothing could be read): they depend
   * on the conversation only, so run replies leave them out and the client joins them to each run.
   */
  readonly facts?: GroupFacts | null
}

/** The same report with exact counts (or whichever tokenizer was asked for). */
export interface Counted {
  readonly tokenizer: TokenizerId
  readonly report: InspectReport
  readonly ms: number
}

/** What the config editor builds its forms from (see `describe.ts`). */
export interface Described {
  readonly presets: readonly WirePreset[]
  readonly strategies: readonly WireStrategy[]
  readonly configSchema: unknown
  /** Condition kinds, targets and number bounds, from the schema. */
  readonly model: ConfigModel
}

/** Two configs run on the loaded conversation, and the groups they decide differently about. */
export interface Compared {
  readonly a: CompareSide
  readonly b: CompareSide
  readonly differing: readonly CompareDifference[]
}

/** A sweep's points, in the order of the values asked for. */
export interface Swept {
  readonly path: string
  readonly points: readonly SweepPoint[]
}

/** A number's bounds as the schema states them (`min` is exclusive when `exclusiveMin`). */
export interface NumberBounds {
  readonly integer: boolean
  readonly min: number | null
  readonly exclusiveMin: boolean
  readonly max: number | null
}

/** One kind of trigger condition (`over`) or target (`under`), and its number's bounds. */
export interface KindModel {
  readonly kind: string
  readonly key: 'over' | 'under'
  readonly bounds: NumberBounds
}

/** The config's shape as the editor and the sweep need it, from the schema (`describe`). */
export interface ConfigModel {
  /** In the schema's order. */
  readonly conditions: readonly KindModel[]
  readonly targets: readonly KindModel[]
  /** Number fields of `window` and `protections`, by key. */
  readonly window: Readonly<Record<string, NumberBounds>>
  readonly protections: Readonly<Record<string, NumberBounds>>
  /** Each strategy's top-level number params, by strategy id and param. */
  readonly strategies: Readonly<Record<string, Readonly<Record<string, NumberBounds>>>>
}
