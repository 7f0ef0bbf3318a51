/**
 * Run: a config (or a preset) on a loaded conversation — resolve it, compact (and replay when
 * asked), and condense the result into a `RunSummary`. The worker and the CLI both run the engine
 * through here, so the resolve → prepare → compact → replay chain is written once.
 *
 * Pure: no worker or DOM globals, so node tests and the CLI call it as the worker does.
 */
import type { CompactionResult } from '../engine/compaction/run.ts'
import { compact } from '../engine/compaction/run.ts'
import type { Prepared } from '../engine/compaction/prepared.ts'
import type { EngineDeps as AnyDeps } from '../engine/compaction/types.ts'
import {
  replay,
  replayCancellable,
  type ReplayHooks,
  type ReplayPoint,
} from '../engine/compaction/replay.ts'
import type { Conversation } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import type { Summarizer } from '../engine/summarize/types.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { toEngineConfig, type ConfigIssue } from '../config/validate.ts'
import type { RiskReport } from '../engine/risk/index.ts'
import type { BudgetPricing } from './budget.ts'
import { defaultCache, type PreparedCache } from './cache.ts'
import { now } from './clock.ts'
import { resolveConfig } from './resolve.ts'
import { riskOfRun } from './risk.ts'
import { decisionBuffers } from './decisions.ts'
import { replayArrays, summarize } from './summarize.ts'
import type { ReplaySeries, RunPhase, RunSummary } from './types.ts'

export { PreparedCache, clearRunCache, preparedEntry } from './cache.ts'
export { resolveConfig } from './resolve.ts'
export { groupStatuses, groupTokens, replayArrays, summarize, toWireDecision } from './summarize.ts'

/** What the engine is run with: the counter that prices, the summariser that writes summaries. */
export interface EngineDeps {
  readonly counter: TextCounter
  readonly summarizer: Summarizer
}

/** The app's deps: the offline digest summariser, so nothing ever leaves the browser. */
export function offlineDeps(counter: TextCounter): EngineDeps {
  return { counter, summarizer: createDigestSummarizer() }
}

/**
 * One compaction of a prepared conversation with a validated config (any summariser, or none).
 * `firstRound`: stop after the first round, without the idempotence round (see `settleLater`).
 */
export function compactPrepared(
  prepared: Prepared,
  config: CompactionConfig,
  deps: AnyDeps,
  firstRound = false,
): Promise<CompactionResult> {
  const options = firstRound ? { checkIdempotence: false } : {}
  return compact(prepared, toEngineConfig(config), deps, STRATEGY_REGISTRY, options)
}

/** The replay of a prepared conversation under a validated config, model call by model call. */
export function replayPrepared(
  prepared: Prepared,
  config: CompactionConfig,
  deps: AnyDeps,
): Promise<ReplayPoint[]> {
  return replay(prepared, toEngineConfig(config), deps, STRATEGY_REGISTRY)
}

/** {@link replayPrepared} with a checkpoint every few calls; null once the checkpoint said stop. */
export function replayPreparedCancellable(
  prepared: Prepared,
  config: CompactionConfig,
  deps: AnyDeps,
  hooks: ReplayHooks,
): Promise<ReplayPoint[] | null> {
  return replayCancellable(prepared, toEngineConfig(config), deps, STRATEGY_REGISTRY, hooks)
}

export interface RunOptions {
  /** Run this preset; `config` is then ignored. */
  readonly preset?: string
  /** Also replay the conversation model call by model call. */
  readonly replay?: boolean
  /** Where the prepared conversation is cached (default: one module-wide cache). */
  readonly cache?: PreparedCache
  /**
   * Called before each phase; resolving `false` abandons the run (it became stale). The worker
   * yields to its message queue here so a newer request is seen between phases.
   */
  readonly checkpoint?: (phase: RunPhase) => Promise<boolean> | boolean
  /**
   * Leave the risk out of the summary (`risk: null`); the record computes it when first asked.
   * The app paints the budget without waiting for it: on a first run the risk index of the whole
   * transcript costs about as much as the compaction (issue 14), and it changes no other figure.
   */
  readonly deferRisk?: boolean
  /**
   * Run the first round only and mark the summary `settling`; `settleRun` runs the idempotence
   * round after. The app paints the budget without waiting for it: that round (re-pricing the
   * projection, then the whole pipeline again) cost 1.6× the first round on 10k messages, and
   * when it changes nothing — the usual case — no figure of the first round moves (issue 14).
   */
  readonly settleLater?: boolean
}

/** What the worker keeps of its latest run, so the detail drawer can show before/after. */
export interface RunRecord {
  readonly config: CompactionConfig
  readonly result: CompactionResult
  readonly prepared: Prepared
  readonly pricing: BudgetPricing
  readonly summary: RunSummary
  /**
   * Removed content the agent used later (every item; the summary carries the first ones).
   * Computed on first read when the run deferred it (same figure either way).
   */
  readonly risk: RiskReport
}

export type RunOutcome =
  | { readonly kind: 'ran'; readonly summary: RunSummary; readonly record: RunRecord }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'stale' }

/**
 * Run a config (or a preset) on `conversation` with `counter` (SPEC §5–§6): invalid configs come
 * back as `invalid` with every issue and its path; otherwise the engine runs with the offline
 * digest summariser and the result is condensed into a `RunSummary`.
 */
export async function runSummary(
  conversation: Conversation,
  counter: TextCounter,
  config: unknown,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const started = now()
  const checkpoint = options.checkpoint ?? (() => true)
  const resolved = resolveConfig(config, options.preset)
  if (!resolved.ok) return { kind: 'invalid', issues: resolved.issues }
  const cache = options.cache ?? defaultCache
  if (!cache.has(conversation, counter) && !(await checkpoint('prepare'))) return { kind: 'stale' }
  const entry = cache.get(conversation, counter)
  if (!(await checkpoint('compact'))) return { kind: 'stale' }
  const deps = offlineDeps(counter)
  const firstRound = options.settleLater === true
  const result = await compactPrepared(entry.prepared, resolved.config, deps, firstRound)
  let points: ReplayPoint[] | null = null
  if (options.replay) {
    if (!(await checkpoint('replay'))) return { kind: 'stale' }
    points = await replayPrepared(entry.prepared, resolved.config, deps)
  }
  if (!(await checkpoint('summarize'))) return { kind: 'stale' }
  let risk = options.deferRisk ? null : riskOfRun(entry.prepared, result)
  const summary = {
    ...summarize(entry, resolved.config, result, points, 0, risk),
    settling: firstRound,
    ms: now() - started,
  }
  const record: RunRecord = {
    config: resolved.config,
    result,
    prepared: entry.prepared,
    pricing: entry.pricing,
    summary,
    get risk() {
      return (risk ??= riskOfRun(entry.prepared, result))
    },
  }
  return { kind: 'ran', summary, record }
}

/**
 * The replay of a finished run, model call by model call (the timeline's series). `checkpoint`
 * is called every few calls with (done, total); resolving false abandons the replay (null).
 */
export async function replayRecord(
  record: RunRecord,
  checkpoint: (done: number, total: number) => Promise<boolean> | boolean = () => true,
): Promise<ReplaySeries | null> {
  const deps = offlineDeps(record.prepared.counter)
  const points = await replayCancellable(
    record.prepared,
    toEngineConfig(record.config),
    deps,
    STRATEGY_REGISTRY,
    { checkpoint },
  )
  return points ? replayArrays(points) : null
}

/** The typed-array buffers of a replay: transferred to the UI thread, not copied. */
export function replayTransferables(series: ReplaySeries): ArrayBuffer[] {
  return [
    series.index,
    series.before,
    series.after,
    series.reported,
    series.costBefore,
    series.costAfter,
    series.rewrites,
  ].map((a) => a.buffer as ArrayBuffer)
}

/** Every typed-array buffer of a summary: transferred to the UI thread, not copied. */
export function transferablesOf(summary: RunSummary): ArrayBuffer[] {
  const g = summary.groups
  const groups = [g.tokensBefore, g.tokensAfter].map((a) => a.buffer as ArrayBuffer)
  const buffers = [...groups, ...decisionBuffers(summary.decisions)]
  return summary.replay ? [...buffers, ...replayTransferables(summary.replay)] : buffers
}
