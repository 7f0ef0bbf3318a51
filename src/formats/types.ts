import type { Conversation, FormatId } from '../engine/model.ts'
import type { FoundRecord } from './compaction-record.ts'

/**
 * A problem found while importing. `line` is 1-based (0 when the input is not line-oriented),
 * `offset` is the 0-based character offset into the whole input text.
 */
export interface ParseWarning {
  readonly line: number
  readonly offset: number
  readonly message: string
}

/** A fatal problem: names where and what was expected. */
export interface ParseError extends ParseWarning {
  readonly kind: 'parse_error'
}

export type ParseResult =
  | {
      readonly ok: true
      readonly conversation: Conversation
      readonly warnings: readonly ParseWarning[]
    }
  | { readonly ok: false; readonly error: ParseError; readonly warnings: readonly ParseWarning[] }

/** One parsed JSONL line. */
export interface JsonlLine {
  /** 1-based line number. */
  readonly line: number
  /** Character offset of the line start in the input. */
  readonly offset: number
  readonly value: unknown
}

/**
 * The input after one cheap structural pass, shared by detection and parsing so the text is
 * parsed once. Wrappers (VCR cassettes, HAR, proxy logs) are unwrapped into `exchange`.
 */
export type SniffedInput = (
  | {
      readonly kind: 'json'
      readonly text: string
      readonly value: unknown
      readonly exchange?: Exchange
    }
  | {
      readonly kind: 'jsonl'
      readonly text: string
      readonly lines: readonly JsonlLine[]
      /** Lines that failed to parse (a truncated last line is the common case). */
      readonly bad: readonly ParseWarning[]
    }
  | { readonly kind: 'text'; readonly text: string; readonly jsonError?: ParseWarning }
) & {
  /**
   * What the structural pass itself noticed and the importer does not see (values nested too
   * deep, kept as their JSON text): `importTranscript` adds them to the result's warnings.
   */
  readonly notices?: readonly ParseWarning[]
  /** Our own compaction record, taken out of the file (see `compaction-record.ts`). */
  readonly record?: FoundRecord
}

/** The request/response an API capture wrapper held (the last full request of the capture). */
export interface Exchange {
  readonly wrapper: 'vcr' | 'har' | 'proxy'
  /** The request body of the last conversation request, parsed. */
  readonly request: unknown
  /** The response body: parsed JSON, or raw SSE text for streamed responses, if captured. */
  readonly response?: unknown
  /** Request URL (helps detection: /v1/messages, :generateContent…). */
  readonly url?: string
  /** How many requests the capture held, and which one was used. */
  readonly count: number
  readonly used: number
  /**
   * Every exchange of the capture in order (the chosen one included): a capture may hold several
   * conversations, which the item list (`items.ts`) offers one by one.
   */
  readonly all?: readonly CapturedExchange[]
}

/** One request/response pair of an API capture, bodies parsed when they are JSON. */
export interface CapturedExchange {
  readonly url?: string
  readonly request: unknown
  readonly response?: unknown
}

export interface Detection {
  readonly format: FormatId
  /** 0..1: how sure the rule is. ≥ 0.9 is structural certainty, ≤ 0.5 is a guess. */
  readonly confidence: number
  /** Human-readable facts that matched ("62/64 lines have parentUuid + sessionId"). */
  readonly evidence: readonly string[]
}

export interface ImportOptions {
  /** The file name, when known: used as a hint, never trusted over structure. */
  readonly fileName?: string
}

/** One transcript format: detection, parsing and serialization back to the same format. */
export interface Importer {
  readonly id: FormatId
  readonly label: string
  /** Return null when the input does not look like this format at all. */
  detect(input: SniffedInput, options?: ImportOptions): Detection | null
  /** Never throws: bad input yields `{ok:false}` naming line/offset and what was expected. */
  parse(input: SniffedInput, options?: ImportOptions): ParseResult
  /** Write a conversation back in this format (the inverse of `parse` up to meaning). */
  serialize(conversation: Conversation): string
}
