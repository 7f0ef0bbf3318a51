import type { Message } from '../model.ts'

/** What a summariser is asked to condense. */
export interface SummaryRequest {
  /** The messages to summarise, in order (already projected: stubs and trims applied). */
  readonly messages: readonly Message[]
  /** The instruction prompt (the source system's own, or the user's). */
  readonly instructions: string
  /** A previous summary to carry forward (iterative summaries). */
  readonly previousSummary?: string
  readonly maxOutputTokens?: number
}

export type SummaryResult =
  | { readonly ok: true; readonly text: string; readonly model?: string }
  | { readonly ok: false; readonly error: string }

/**
 * One interface for every summariser, injected into the engine: the offline digest (not an
 * LLM, deterministic) and HTTP summarisers the user configures (OpenAI-compatible, Anthropic).
 */
export interface Summarizer {
  readonly id: string
  readonly label: string
  /** False for the extractive digest: its output is labelled as not written by a model. */
  readonly isLlm: boolean
  /**
   * Given only by a summariser whose text is a function of the request alone (the offline
   * digest): two with the same key write the same text for the same request, so a summary step
   * can be played back from its record (strategies/step-records.ts) even though the app makes a
   * new summariser per run. Without it (an LLM) every run asks the summariser again.
   */
  readonly valueKey?: string
  summarize(request: SummaryRequest): Promise<SummaryResult>
}
