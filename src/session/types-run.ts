/**
 * The run reply's wire shapes that keep a field edit's reply small (issue 14): the per-group facts
 * that depend only on the conversation travel once, with the load, and the decisions travel as
 * columns (typed arrays, transferred) instead of thousands of small objects the structured clone
 * walks field by field on both threads.
 */
import type { GroupStatus, RunSummary, WireDecision } from './types.ts'

/**
 * Per-group facts the table shows and filters on. They depend on the conversation only, so the
 * `load` reply carries them once and a run reply leaves them out; the client joins them to each
 * run ({@link RunView}). Indexed like `RunSummary['groups'].ids`.
 */
export interface GroupFacts {
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

/**
 * A run's first `MAX_DECISIONS` decisions, column by column: decision `i` is
 * `{kind: kinds[kind[i]], strategy: strategies[strategy[i]], …}` ({@link wireDecisionAt}).
 * Kinds, strategies and reasons repeat, so they are tables indexed by small integers. Their
 * sentences are not here: the engine writes them when read, and a view asks for the ones it shows
 * (the `sentences` request, naming `run`).
 */
export interface WireDecisions {
  /**
   * Which of the session's runs these are (the `sentences` request names it); 0 outside a
   * session (a summary the CLI or a sweep makes).
   */
  readonly run: number
  readonly length: number
  readonly kinds: readonly WireDecision['kind'][]
  readonly kind: Uint8Array
  readonly strategies: readonly string[]
  readonly strategy: Uint16Array
  readonly reasons: readonly string[]
  readonly reason: Uint16Array
  readonly step: Int32Array
  readonly groupId: readonly string[]
  readonly tokensBefore: Float64Array
  readonly tokensAfter: Float64Array
  /** The decision's round, or -1 when it has none. */
  readonly round: Int32Array
  /** `fixed` of the decisions that have one, by decision index. */
  readonly fixed: Readonly<Record<number, string>>
}

/** The per-group columns a run reply carries (the rest are the load's {@link GroupFacts}). */
export interface RunGroups {
  readonly ids: readonly string[]
  readonly kinds: readonly string[]
  readonly status: readonly GroupStatus[]
  readonly tokensBefore: Float64Array
  readonly tokensAfter: Float64Array
}

/** A run as the UI reads it: the run reply with the loaded conversation's group facts joined. */
export type RunView = Omit<RunSummary, 'groups'> & {
  readonly groups: RunGroups & GroupFacts
}
