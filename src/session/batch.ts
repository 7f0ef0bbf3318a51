/**
 * The CLI's requests of the session: one file, read and priced once (`inspect`), or run with one
 * config and written out with its report (`compact`). The same resolve → prepare → compact →
 * replay chain as the app's runs (`run.ts`), only with a summariser of the user's choice and
 * the counter the config names.
 */
import { accountingFor, summarizeReconciliation } from '../engine/accounting/index.ts'
import type { ReconciliationSummary } from '../engine/accounting/index.ts'
import { explainNoChange } from '../engine/compaction/explain.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import type { CompactionResult } from '../engine/compaction/run.ts'
import { sessionCost } from '../engine/cost/summary.ts'
import { inspectConversation } from '../engine/inspect.ts'
import type { InspectReport } from '../engine/inspect-types.ts'
import type { Conversation } from '../engine/model.ts'
import { assessRisk } from '../engine/risk/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import {
  createHttpSummarizer,
  type FetchLike,
  type HttpSummarizerConfig,
} from '../engine/summarize/http.ts'
import type { Summarizer } from '../engine/summarize/types.ts'
import type { TokenizerId } from '../engine/tokens/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { buildCompactReport, type CompactReport } from '../export/reports.ts'
import { exportCompactedTranscript } from '../export/transcript.ts'
import { counterFor } from './load.ts'
import { compactPrepared, replayPrepared } from './run.ts'

export { importInput, type LoadInput, type Utf8Decoder } from './load.ts'
export { resolveConfig } from './resolve.ts'
export { exportConfigFile } from './export.ts'
export type { Summarizer }

/** The offline digest, or a summariser endpoint the user named (the only network use). */
export function summarizerFor(
  endpoint: HttpSummarizerConfig | null,
  fetchFn: FetchLike,
): Summarizer {
  return endpoint ? createHttpSummarizer(endpoint, fetchFn) : createDigestSummarizer()
}

/** `inspect`: the report priced with `tokenizer`, and how each call's context was reconciled. */
export async function inspectFile(
  conversation: Conversation,
  tokenizer: TokenizerId,
): Promise<{ readonly report: InspectReport; readonly reconciliation: ReconciliationSummary }> {
  const counter = await counterFor(tokenizer)
  const report = inspectConversation(conversation, counter)
  const prepared = prepare(conversation, counter)
  return {
    report,
    reconciliation: summarizeReconciliation(accountingFor(prepared).reconciliation),
  }
}

export interface CompactFileOptions {
  /** The name the report gives the input. */
  readonly file: string
  readonly preset?: string
  /** Default: the offline digest. */
  readonly summarizer?: Summarizer
  /** Write the per-call replay into the report (it always runs: the cost needs every call). */
  readonly withReplay?: boolean
}

export interface CompactedFile {
  readonly result: CompactionResult
  readonly report: CompactReport
  /** The compacted conversation in its source format. */
  readonly transcript: string
  /** Why the run changed nothing, in the app's words (null when it changed something). */
  readonly noChange: string | null
}

/** `compact`: the config run on the conversation, priced with the counter the config names. */
export async function compactFile(
  conversation: Conversation,
  config: CompactionConfig,
  options: CompactFileOptions,
): Promise<CompactedFile> {
  const counter = await counterFor(config.tokenizer)
  const deps = { counter, summarizer: options.summarizer ?? createDigestSummarizer() }
  const prepared = prepare(conversation, counter)
  const result = await compactPrepared(prepared, config, deps)
  const points = await replayPrepared(prepared, config, deps)
  const report = buildCompactReport(result, {
    file: options.file,
    config: { name: config.name, ...(options.preset ? { preset: options.preset } : {}) },
    cost: sessionCost(points),
    risk: assessRisk(prepared, result),
    ...(options.withReplay ? { replay: points } : {}),
  })
  const noChange = explainNoChange({
    changes: result.changes,
    steps: result.steps,
    decisions: result.decisions,
    tokensBefore: result.tokensBefore,
    usable: result.window.usable,
    fallbackRan: result.fallbackRan,
  })
  return { result, report, transcript: exportCompactedTranscript(result).text, noChange }
}
