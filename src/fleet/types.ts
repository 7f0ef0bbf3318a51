/**
 * Fleet evaluation (issue 16): one config over many conversations. Pure data shapes, shared by
 * the CLI (`evaluate`, `merge`), the worker pool and the app's fleet view.
 */

/** Which config a fleet ran with; `digest` tells partial reports of different configs apart. */
export interface FleetConfigRef {
  readonly name: string
  readonly preset?: string
  /** A stable hash of the validated config (FNV-1a of its JSON), hex. */
  readonly digest: string
}

/** Tokens before → after under the config. */
export interface TokenPair {
  readonly before: number
  readonly after: number
}

/** One conversation under the config: every figure is read from the same run `compact` reports. */
export interface FleetRow {
  /** The file's path as listed (CLI) or its name in the dropped set (app). */
  readonly name: string
  /** Which conversation of a multi-item file (0 for a file holding one). */
  readonly item: number
  /** Its name in the file's item list (null for a file holding one conversation). */
  readonly itemName: string | null
  readonly format: string
  /** The model the transcript names, or null. */
  readonly model: string | null
  readonly messages: number
  /** Model calls (assistant messages) replayed. */
  readonly calls: number
  readonly tokens: {
    /** The conversation as `compact` writes it: its report's `tokens.before` / `tokens.after`. */
    readonly last: TokenPair & { readonly saved: number; readonly savedFraction: number }
    /** The largest context of any call, uncompacted and under the config (replay). */
    readonly peak: TokenPair
  }
  /** USD of the whole session (the report's `cost`), null figures when no price is known. */
  readonly cost: {
    readonly before: number | null
    readonly after: number | null
    readonly saved: number | null
  }
  /** Strategy id → number of calls at which it changed something (replay). */
  readonly fired: Readonly<Record<string, number>>
  /** 1-based call at which the config first changed something; null when it never did. */
  readonly firstCompactionCall: number | null
  /** Decisions that changed the conversation (`compact`'s change count). */
  readonly changes: number
  readonly invariantsOk: boolean
  /** Removed groups whose content the agent used later (`risk.usedLater`). */
  readonly usedLater: number
}

/** A file (or an item of one) that could not be evaluated, and why. */
export interface FleetFailure {
  readonly name: string
  /** The item that failed (absent when the file could not be read at all). */
  readonly item?: number
  readonly message: string
}

/** Total, median and p90 of one figure over the rows that have it. */
export interface Spread {
  readonly total: number
  readonly median: number | null
  readonly p90: number | null
  /** Rows that had the figure (cost: rows with a price). */
  readonly count: number
}

export interface FleetAggregates {
  readonly conversations: number
  readonly failed: number
  readonly tokensBefore: number
  readonly tokensAfter: number
  /** Tokens saved per conversation (last call). */
  readonly saved: Spread
  /** Fraction of the last call saved per conversation (total: saved / before over the fleet). */
  readonly savedFraction: Spread
  readonly costBefore: Spread
  readonly costAfter: Spread
  readonly costSaved: Spread
  readonly invariantsViolated: number
  readonly usedLater: number
  /** Conversations the config never changed. */
  readonly untouched: number
}

export const FLEET_REPORT_KIND = 'compaction-lab/fleet-report'
export const FLEET_PARTIAL_KIND = 'compaction-lab/fleet-partial'
export const FLEET_VERSION = 1

/** The report `evaluate` writes; a merge of every partial is the same value. */
export interface FleetReport {
  readonly kind: typeof FLEET_REPORT_KIND
  readonly version: typeof FLEET_VERSION
  readonly config: FleetConfigRef
  /** Files evaluated (including the failed ones). */
  readonly files: number
  /** Sorted by name, then item. */
  readonly rows: readonly FleetRow[]
  /** Sorted by name, then item. */
  readonly failures: readonly FleetFailure[]
  readonly aggregates: FleetAggregates
}

/** One shard's share (`evaluate --shard i/n`): rows and failures, no aggregates. */
export interface FleetPartial {
  readonly kind: typeof FLEET_PARTIAL_KIND
  readonly version: typeof FLEET_VERSION
  readonly config: FleetConfigRef
  /** 1-based shard index of `count`. */
  readonly shard: { readonly index: number; readonly count: number }
  readonly files: number
  readonly rows: readonly FleetRow[]
  readonly failures: readonly FleetFailure[]
}

/** What evaluating one file gives: a row per conversation, or a failure per item / file. */
export type FleetOutcome =
  | { readonly kind: 'row'; readonly row: FleetRow }
  | { readonly kind: 'failed'; readonly failure: FleetFailure }
