import type { FormatId } from './model.ts'
import type { TokenizerId } from './tokens/types.ts'

/** Kinds of atomic compaction units (SPEC §3). */
export type GroupKind = 'system' | 'user' | 'assistant_text' | 'tool_call' | 'summary'

/** Where context tokens go; the budget view and `inspect` share these buckets. */
export type TokenCategory =
  | 'system'
  | 'tools'
  | 'user'
  | 'assistant'
  | 'reasoning'
  | 'tool_calls'
  | 'tool_results'
  | 'images'
  | 'opaque'
  | 'framing'

export interface ApproximateCount {
  /** What was priced by rule instead of counted exactly ("3 images (Anthropic w×h/750)"). */
  readonly what: string
  readonly tokens: number
}

export interface TokenSummary {
  readonly tokenizer: TokenizerId
  /** Every text count is exact (the approximate list may still be non-empty for images/opaque). */
  readonly exact: boolean
  readonly total: number
  readonly byCategory: Readonly<Record<TokenCategory, number>>
  /** Parts priced by a rule rather than BPE: labelled so the UI can say "≈". */
  readonly approximate: readonly ApproximateCount[]
  /** Model-family calibration (e.g. Claude ≈ 1.6–2.1× tiktoken): applied on top, always labelled. */
  readonly calibration: { readonly family: string; readonly factor: number; readonly total: number }
}

export interface ReportedSummary {
  /** The last model call's reported prompt size (input + cache read + cache creation). */
  readonly contextTokens: number
  readonly source: string
  readonly messageId: string
  /** How many messages carry reported usage. */
  readonly points: number
}

/** The `compaction-lab inspect` report (SPEC §8); the first page shows the same figures. */
export interface InspectReport {
  readonly format: FormatId
  readonly messages: number
  readonly turns: number
  readonly groups: Readonly<Record<GroupKind, number>> & { readonly total: number }
  readonly toolCalls: number
  readonly toolResults: number
  readonly orphans: number
  readonly pending: number
  /** Results paired by position because ids were missing, empty or ambiguous. */
  readonly pairedByPosition: number
  readonly markers: number
  readonly tokens: TokenSummary
  readonly reported: ReportedSummary | null
  readonly meta: {
    readonly model?: string
    readonly title?: string
    readonly wrapper?: string
    readonly contextWindow?: number
    readonly historyIncomplete?: string
    readonly notes: readonly string[]
  }
}
