/**
 * The session: one loaded conversation, the counter it is priced with and its latest run, and
 * every request a view (or the CLI) makes of it. Pure: the worker wraps it in transport (ids,
 * cancel, progress messages) and decides when a request became stale; the session only asks
 * `live()`/`checkpoint` between phases and answers with an `Outcome`.
 */
import type { Conversation } from '../engine/model.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import type { TextCounter, TokenizerId } from '../engine/tokens/types.ts'
import type { CsvColumn } from '../export/reports.ts'
import { clearRunCache } from './cache.ts'
import { compareConfigs } from './compare.ts'
import { describeConfigs } from './describe.ts'
import { groupDetail } from './detail.ts'
import { sentencesOf } from './decisions.ts'
import {
  exportConfigFile,
  exportReportFile,
  exportTranscriptFile,
  importConfigText,
} from './export.ts'
import {
  counterFor,
  countConversation,
  loadTranscript,
  type LoadInput,
  type Utf8Decoder,
} from './load.ts'
import { runRisk } from './risk.ts'
import { replayRecord, runSummary, type RunRecord } from './run.ts'
import { settleRun } from './settle.ts'
import { sweepConfig } from './sweep.ts'
import type {
  Compared,
  ConfigExportTarget,
  ConfigIssue,
  Counted,
  Described,
  ExportFile,
  GroupDetail,
  Loaded,
  ReplaySeries,
  RunPhase,
  RunRisk,
  RunSummary,
  Sentences,
  Settled,
  Swept,
} from './types.ts'

/** How a session request ends; `stale`: it was abandoned (a newer request, a cancel). */
export type Outcome<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'stale' }

export const ok = <T>(value: T): Outcome<T> => ({ kind: 'ok', value })
const failed = (message: string): Outcome<never> => ({ kind: 'failed', message })
const STALE: Outcome<never> = { kind: 'stale' }
const NOTHING_LOADED = 'nothing loaded: load a transcript first'

export class Session {
  private conv: Conversation | null = null
  private priceWith: TextCounter = estimateCounter
  private last: RunRecord | null = null
  /** Runs numbered so far, and the number of `last`'s decision columns (`WireDecisions.run`). */
  private runsNumbered = 0
  private lastNumber = 0
  private lastPreset: string | undefined
  private fileName: string | undefined
  private readonly decode: Utf8Decoder

  constructor(decode: Utf8Decoder) {
    this.decode = decode
  }

  /** The conversation loaded now (a newer load replaces it): staleness checks compare it. */
  get conversation(): Conversation | null {
    return this.conv
  }

  /** The counter runs price with: chars/4 until an exact count is in. */
  get counter(): TextCounter {
    return this.priceWith
  }

  /** The latest finished run on the loaded conversation. */
  get lastRun(): RunRecord | null {
    return this.last
  }

  /**
   * Parse a transcript. Only a load that parsed replaces the session (and forgets its runs): a
   * failed one (a bad paste, an unreadable file) leaves the previous transcript, its counter and
   * its run in place, so the UI can keep showing (and querying) the analysis it had (issue 15).
   */
  load(input: LoadInput): Loaded {
    const { loaded, conversation } = loadTranscript(input, this.decode)
    if (!conversation) return loaded
    this.conv = conversation
    this.priceWith = estimateCounter
    this.last = null
    this.lastPreset = undefined
    this.fileName = input.fileName
    clearRunCache()
    return loaded
  }

  /** Price the loaded conversation with `tokenizer`; runs from then on use that counter. */
  async count(tokenizer: TokenizerId, live: () => boolean = () => true): Promise<Outcome<Counted>> {
    const conv = this.conv
    if (!conv) return failed('nothing loaded to count')
    const counter = await counterFor(tokenizer)
    if (!live() || this.conv !== conv) return STALE
    this.priceWith = counter
    return ok(countConversation(conv, counter))
  }

  /**
   * Run a config (or a preset) without replay; the record is kept for detail and exports.
   * `deferRisk`: the summary's risk is null and {@link risk} brings it (the app's first paint);
   * `settleLater`: the first round only, {@link settle} runs the idempotence round.
   */
  async run(
    config: unknown,
    preset: string | undefined,
    checkpoint: (phase: RunPhase) => Promise<boolean> | boolean = () => true,
    options: { readonly deferRisk?: boolean; readonly settleLater?: boolean } = {},
  ): Promise<Outcome<RunSummary>> {
    const conv = this.conv
    if (!conv) return failed('nothing loaded to run on: load a transcript first')
    const outcome = await runSummary(conv, this.priceWith, config, {
      ...(preset !== undefined ? { preset } : {}),
      replay: false,
      checkpoint,
      ...(options.deferRisk ? { deferRisk: true } : {}),
      ...(options.settleLater ? { settleLater: true } : {}),
    })
    if (outcome.kind !== 'ran') return outcome
    if (this.conv !== conv) return STALE
    this.last = outcome.record
    this.lastPreset = preset
    return ok(this.numbered(outcome.summary))
  }

  /** `summary` with its decisions numbered as the latest run's (the `sentences` request). */
  private numbered(summary: RunSummary): RunSummary {
    this.lastNumber = ++this.runsNumbered
    return { ...summary, decisions: { ...summary.decisions, run: this.lastNumber } }
  }

  /**
   * The idempotence round of the latest run when it was sent after its first round: the settled
   * record replaces it (exports and detail read the settled result from then on).
   */
  async settle(): Promise<Outcome<Settled>> {
    const record = this.last
    if (!record) return failed('nothing ran yet: pick a preset or edit the config first')
    const { record: settled, settled: reply } = await settleRun(record)
    if (this.last !== record) return STALE
    this.last = settled
    // Settled decisions replace the first ones: another number (the same ones keep theirs).
    if (reply.kind === 'changed') return ok({ ...reply, summary: this.numbered(reply.summary) })
    return ok(reply)
  }

  /**
   * Sentences of the latest run's decisions (by index in its columns), written now. `run` is the
   * number its columns carry: the sentences of any other run are not there any more.
   */
  sentences(run: number, indices: readonly number[]): Outcome<Sentences> {
    const record = this.last
    if (!record || run !== this.lastNumber)
      return failed("those decisions are of an earlier run: ask for the latest run's")
    return ok(sentencesOf(run, record.result.decisions, indices))
  }

  /** The latest run's risk (computed now if the run deferred it), as the summary carries it. */
  risk(): Outcome<RunRisk> {
    const record = this.last
    if (!record) return failed('nothing ran yet: pick a preset or edit the config first')
    return ok(runRisk(record.risk))
  }

  /** The latest run's replay, model call by model call; `checkpoint` false abandons it. */
  async replay(
    checkpoint: (done: number, total: number) => Promise<boolean> | boolean,
  ): Promise<Outcome<ReplaySeries>> {
    const record = this.last
    if (!record) return failed('nothing ran yet: pick a preset or edit the config first')
    const series = await replayRecord(record, checkpoint)
    return series && this.last === record ? ok(series) : STALE
  }

  /** One group before and after the latest run, text cut at `maxChars` per part. */
  detail(groupId: string, maxChars: number): Outcome<GroupDetail> {
    const conv = this.conv
    if (!conv) return failed(NOTHING_LOADED)
    const record = this.last?.prepared.conversation === conv ? this.last : null
    const found = groupDetail(conv, this.priceWith, record, groupId, maxChars)
    return found ? ok(found) : failed(`no group "${groupId}" in this transcript`)
  }

  describe(): Outcome<Described> {
    return ok(describeConfigs())
  }

  async sweep(
    params: {
      readonly config: unknown
      readonly path: string
      readonly values: readonly number[]
      readonly withCost?: boolean
    },
    checkpoint: (done: number, total: number) => Promise<boolean>,
  ): Promise<Outcome<Swept>> {
    const conv = this.conv
    if (!conv) return failed(NOTHING_LOADED)
    const { config, path, values } = params
    const outcome = await sweepConfig(conv, this.priceWith, config, path, values, {
      ...(params.withCost ? { withCost: true } : {}),
      checkpoint: async (done, total) => (await checkpoint(done, total)) && this.conv === conv,
    })
    if (outcome.kind !== 'swept') return outcome
    return ok({ path, points: outcome.points })
  }

  async compare(a: unknown, b: unknown): Promise<Outcome<Compared>> {
    const conv = this.conv
    if (!conv) return failed(NOTHING_LOADED)
    const outcome = await compareConfigs(conv, this.priceWith, a, b)
    if (this.conv !== conv) return STALE
    return outcome.kind === 'invalid' ? outcome : ok(outcome.result)
  }

  exportConfig(
    config: unknown,
    preset: string | undefined,
    target: ConfigExportTarget,
  ): Outcome<ExportFile> {
    const outcome = exportConfigFile(config, preset, target)
    return outcome.kind === 'invalid' ? outcome : ok(outcome.file)
  }

  async exportTranscript(): Promise<Outcome<ExportFile>> {
    const record = await this.settledOnLoaded()
    return record ? ok(exportTranscriptFile(record, this.fileName)) : this.notRun()
  }

  async exportReport(
    format: 'json' | 'csv',
    columns?: readonly CsvColumn[],
  ): Promise<Outcome<ExportFile>> {
    const record = await this.settledOnLoaded()
    if (!record) return this.notRun()
    const context = {
      ...(this.fileName !== undefined ? { sourceFile: this.fileName } : {}),
      ...(this.lastPreset !== undefined ? { preset: this.lastPreset } : {}),
    }
    return ok(exportReportFile(record, format, context, columns))
  }

  importConfig(text: string): Outcome<{ readonly config: unknown }> {
    const outcome = importConfigText(text)
    return outcome.kind === 'invalid' ? outcome : ok({ config: outcome.config })
  }

  /** The latest run, settled first if it was sent after its first round: exports are final. */
  private async settledOnLoaded(): Promise<RunRecord | null> {
    if (this.ranOnLoaded()?.summary.settling) await this.settle()
    return this.ranOnLoaded()
  }

  private ranOnLoaded(): RunRecord | null {
    const conv = this.conv
    return conv && this.last?.prepared.conversation === conv ? this.last : null
  }

  private notRun(): Outcome<never> {
    return failed(
      this.conv ? 'nothing ran yet: pick a preset or edit the config first' : NOTHING_LOADED,
    )
  }
}
