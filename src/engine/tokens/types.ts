/** The exact BPE vocabularies we ship (js-tiktoken rank data). */
export type EncodingName = 'o200k_base' | 'cl100k_base'

/** A tokenizer choice: an exact encoding, or the instant chars/4 estimate. */
export type TokenizerId = EncodingName | 'estimate'

/** Counts tokens of plain text. Special-token strings (`<|endoftext|>`) count as ordinary text. */
export interface TextCounter {
  readonly id: TokenizerId
  /** True when `count` equals js-tiktoken's `encode(text, [], []).length` for every input. */
  readonly exact: boolean
  count(text: string): number
  /**
   * Optional: exactly `count(text)` when `text` starts with `base`'s first `cut` characters,
   * counting only what follows a boundary near the cut (the rest is known per `base`). Callers
   * that build a text from a prefix of another — a truncated result, a capped digest — use it
   * through `priceSplice` (pricing-splice.ts).
   */
  countSplice?(base: string, cut: number, text: string): number
  /**
   * Optional: exactly `count(base.slice(0, cut) + tail)`, without that text being built or read:
   * a caller that makes a new cut of a counted text on every edit (a capped digest at a new cap)
   * pays for the end of the cut only — no copy, scan or hash of the whole new text
   * (`priceSpliceTail`, pricing-splice.ts).
   */
  countSpliceTail?(base: string, cut: number, tail: string): number
}
