import type { PricingConfig } from '../cost/tracker.ts'
import type { AccountingOverrides } from '../accounting/types.ts'
import type { Grouping } from '../groups.ts'
import type { Conversation, Message, Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import type { TextCounter } from '../tokens/types.ts'
import type { Summarizer } from '../summarize/types.ts'
import type { Sentence } from './sentence.ts'

/**
 * Why a decision was made: a fixed vocabulary (SPEC §5) so reports and the UI can filter on it.
 * The sentence beside it says the specifics in words (`detailOf`, sentence.ts).
 */
export const REASON_CODES = [
  // outcomes that change the projection
  'superseded', // a newer result for the same resource exists (llm-interactive-proxy "applied")
  'superseded_by_write', // a later edit of the file makes an earlier read of it stale
  'payload_trimmed', // large argument/result fields replaced (adachsoft)
  'result_truncated', // tool result cut to a character budget (falai tool_result_budget)
  'whitespace_collapsed', // falai micro_compact
  'summarized', // replaced by an inserted summary
  'pruned', // opencode prune: old tool output cleared
  'tool_use_cleared', // Anthropic clear_tool_uses
  'thinking_cleared', // Anthropic clear_thinking
  'truncation', // oldest groups dropped to meet a budget (MAF truncation, falai fallback)
  'sliding_window', // outside the last N groups/turns
  'tool_call_compaction', // MAF selective tool calls
  'tool_result_compaction', // MAF collapse tool results
  'token_budget_fallback', // final fallback: oldest non-protected groups
  'token_budget_fallback_strict', // strict fallback: system groups too
  // outcomes that leave things as they are (recorded so "why not?" has an answer)
  'protected',
  'denied_by_policy',
  'skipped_below_min_tokens',
  'no_savings', // replacement would not be smaller
  'below_threshold',
  'keep_recent',
  'already_compacted',
  'summary_failed',
  'failed_open',
] as const
export type ReasonCode = (typeof REASON_CODES)[number]

/** What protects an item from being modified (SPEC §5). */
export type ProtectionKind =
  | 'system'
  | 'recent_turn'
  | 'pinned'
  | 'protected_tool'
  | 'pending_call'
  | 'latest_thinking'
  | 'minimum_retained'
  /** The newest copy of a resource that an applied supersession points to. */
  | 'newest_copy'
  /** Outside the current call's context: another agent's thread, or history an upstream compaction dropped. */
  | 'out_of_context'
  /** The summary an upstream compaction left: the context starts there (dropping it drops the history it stands for). */
  | 'upstream_summary'

export interface DecisionBase {
  /** Strategy id that made it (or `pipeline` / `fallback`). */
  readonly strategy: string
  /** Index of the pipeline step (−1 for the final fallback). */
  readonly step: number
  readonly reason: ReasonCode
  /**
   * One human sentence: what and why, with the specifics. Written when read: `detailOf(d)`
   * (reports and the wire call it `detail`).
   */
  readonly sentence: Sentence
  /** Group the decision is about (`g…`, or the inserted summary's anchor group). */
  readonly groupId: string
  readonly tokensBefore: number
  readonly tokensAfter: number
  /** Set when a source system's known bug was avoided: what the faithful mode would do. */
  readonly fixed?: string
  /** Supersession: the newer result that made this one stale. */
  readonly newer?: PartRef
  /** Set on decisions of a later round (the config re-run on its own projection). */
  readonly round?: number
}

export type Decision =
  | (DecisionBase & { readonly kind: 'exclude' })
  | (DecisionBase & {
      readonly kind: 'stub' | 'trim'
      readonly messageId: string
      readonly target: PartRef
      /** null: the part is removed (clear-thinking). */
      readonly replacement: Part | null
      /** Trimmed argument/result fields (adachsoft), when the trim is field-level. */
      readonly fields?: readonly string[]
    })
  | (DecisionBase & {
      readonly kind: 'insert'
      readonly summary: Message
      readonly covers: readonly string[]
      readonly position: 'before' | 'after'
    })
  | (DecisionBase & {
      readonly kind: 'protected'
      readonly attempted: 'exclude' | 'stub' | 'trim' | 'insert'
      readonly protection: ProtectionKind
      readonly target?: PartRef
    })
  | (DecisionBase & { readonly kind: 'skip'; readonly target?: PartRef })
  | (DecisionBase & { readonly kind: 'failed_open'; readonly error: string })

export type DecisionKind = Decision['kind']

/** The usable window (SPEC §5): window − reserved output − safety buffer. */
export interface WindowConfig {
  readonly contextTokens: number
  readonly reservedOutput: number
  readonly buffer: number
}

export interface ProtectionConfig {
  /** Never modify system groups / the top-level system prompt. */
  readonly system: boolean
  /** Protect the last N real user turns entirely (0 = none). */
  readonly recentTurns: number
  /** Message ids or group ids that are never modified. */
  readonly pinned: readonly string[]
  /** Tool names whose calls and results are never modified. */
  readonly tools: readonly string[]
  /** Calls still waiting for a result are never removed. */
  readonly pendingCalls: boolean
  /** Thinking blocks of the latest assistant message stay byte-identical (Anthropic rule). */
  readonly latestThinking: boolean
}

export type TriggerCondition =
  | { readonly kind: 'tokens'; readonly over: number }
  | { readonly kind: 'window_fraction'; readonly over: number }
  | { readonly kind: 'messages'; readonly over: number }
  | { readonly kind: 'groups'; readonly over: number }
  | { readonly kind: 'turns'; readonly over: number }
  | { readonly kind: 'tool_results'; readonly over: number }

export interface Trigger {
  readonly mode: 'all' | 'any'
  readonly conditions: readonly TriggerCondition[]
}

/** Early stop: once the context is under this, later steps are skipped. */
export type Target =
  | { readonly kind: 'tokens'; readonly under: number }
  | { readonly kind: 'window_fraction'; readonly under: number }

export interface StepConfig {
  readonly strategy: string
  readonly enabled: boolean
  readonly params: Readonly<Record<string, unknown>>
  readonly trigger?: Trigger
  readonly target?: Target
}

export interface FallbackConfig {
  readonly enabled: boolean
  /** Budget the fallback drives the context under (default: the usable window). */
  readonly target?: Target
  /** Also drop system groups if still over (MAF's "strict" fallback). */
  readonly strict: boolean
}

/** The engine's runtime view of a config (the versioned file format lives in src/config). */
export interface EngineConfig {
  readonly window: WindowConfig
  readonly protections: ProtectionConfig
  readonly pipeline: readonly StepConfig[]
  readonly fallback: FallbackConfig
  /** The user's figures for the hidden prefix and scale (else fitted on reported usage). */
  readonly accounting?: AccountingOverrides
  /** The user's prices and cache settings (else the price table's, matched by model id). */
  readonly pricing?: PricingConfig
}

/** Everything a run needs from outside: injected so the engine stays pure and deterministic. */
export interface EngineDeps {
  readonly counter: TextCounter
  readonly summarizer?: Summarizer
  /** Milliseconds clock, only for reporting durations — never used in decisions. */
  readonly now?: () => number
}

export interface ConversationSnapshot {
  readonly conversation: Conversation
  readonly grouping: Grouping
}
