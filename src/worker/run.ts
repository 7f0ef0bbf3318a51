/**
 * One run of a compaction config on a loaded conversation, as the UI needs it: validate the
 * config, run the engine (and the per-call replay when asked), and condense the result into a
 * `RunSummary` whose per-group and per-call series are typed arrays.
 *
 * Pure apart from `performance.now()` for the reported duration: no worker globals, so it runs in
 * node tests as it runs in the worker. The `Prepared` conversation (groups, pairing, every part's
 * price) and the per-message category pricing are cached for the latest (conversation, counter),
 * so re-running with another config never re-prices the conversation.
 */
import { compact, type CompactionResult } from '../engine/compaction/run.ts'
import { usableWindow } from '../engine/compaction/pipeline.ts'
import { explainNoChange } from '../engine/compaction/explain.ts'
import { prepare, type Prepared } from '../engine/compaction/prepared.ts'
import { replay, replayCancellable, type ReplayPoint } from '../engine/compaction/replay.ts'
import type { Decision } from '../engine/compaction/types.ts'
import type { Conversation } from '../engine/model.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import { loadConfigText } from '../config/load.ts'
import { migrateConfig } from '../config/migrate.ts'
import { isPresetId, PRESET_IDS, presetConfig } from '../config/presets.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { toEngineConfig, validateConfig, type ConfigIssue } from '../config/validate.ts'
import { BudgetPricing } from './budget.ts'
import { sessionCost } from '../engine/cost/summary.ts'
import { priceFor } from '../engine/cost/prices.ts'
import { cachingOf } from '../engine/cost/tracker.ts'
import { reconciledBudget } from './context-budget.ts'
import { describeFigure, summarizeReconciliation } from '../engine/accounting/index.ts'
import { groupFacts, triggerLevels, upstreamMarkers, offenderGroups } from './facts.ts'
import { riskOfRun, runRisk } from './risk.ts'
import type { RiskReport } from '../engine/risk/index.ts'
import {
  MAX_DECISIONS,
  type GroupStatus,
  type BudgetCategories,
  type ReplaySeries,
  type RunPhase,
  type RunSummary,
  type WireDecision,
} from './protocol.ts'

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
}

/** What the worker keeps of its latest run, so the detail drawer can show before/after. */
export interface RunRecord {
  readonly config: CompactionConfig
  readonly result: CompactionResult
  readonly prepared: Prepared
  readonly pricing: BudgetPricing
  readonly summary: RunSummary
  /** Removed content the agent used later (every item; the summary carries the first ones). */
  readonly risk: RiskReport
}

export type RunOutcome =
  | { readonly kind: 'ran'; readonly summary: RunSummary; readonly record: RunRecord }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }
  | { readonly kind: 'stale' }

interface Entry {
  readonly conversation: Conversation
  readonly counter: TextCounter
  readonly prepared: Prepared
  readonly pricing: BudgetPricing
}

/**
 * Single-entry cache of the latest (conversation, counter): a new load or another tokenizer
 * replaces it, so the worker never holds two conversations' worth of prices.
 */
export class PreparedCache {
  private entry: Entry | null = null

  get(conversation: Conversation, counter: TextCounter): Entry {
    const e = this.entry
    if (e && e.conversation === conversation && e.counter === counter) return e
    const fresh: Entry = {
      conversation,
      counter,
      prepared: prepare(conversation, counter),
      pricing: new BudgetPricing(conversation, counter),
    }
    this.entry = fresh
    return fresh
  }

  /** Whether the next `get` for this pair is free (tests, and the worker's progress phases). */
  has(conversation: Conversation, counter: TextCounter): boolean {
    return this.entry?.conversation === conversation && this.entry.counter === counter
  }

  clear(): void {
    this.entry = null
  }
}

const defaultCache = new PreparedCache()

/** The prepared conversation and pricing of (conversation, counter), from the default cache. */
export function preparedEntry(
  conversation: Conversation,
  counter: TextCounter,
): { readonly prepared: Prepared; readonly pricing: BudgetPricing } {
  return defaultCache.get(conversation, counter)
}

/** Drop the default cache (a new load: the old conversation's prices must not stay in memory). */
export function clearRunCache(): void {
  defaultCache.clear()
}

/** Validate the config (JSON text, a config object, or a preset id) against the registry. */
export function resolveConfig(
  config: unknown,
  preset: string | undefined,
):
  | { readonly ok: true; readonly config: CompactionConfig }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] } {
  if (preset !== undefined) {
    if (!isPresetId(preset)) {
      return {
        ok: false,
        issues: [
          {
            path: 'preset',
            message: `unknown preset "${preset}"; one of: ${PRESET_IDS.join(', ')}`,
          },
        ],
      }
    }
    return { ok: true, config: presetConfig(preset) }
  }
  if (typeof config === 'string') return loadConfigText(config, STRATEGY_REGISTRY)
  const migrated = migrateConfig(config)
  if (!migrated.ok) return { ok: false, issues: [{ path: 'version', message: migrated.message }] }
  return validateConfig(migrated.value, STRATEGY_REGISTRY)
}

/**
 * Status of every original group, from the decisions of every round: an excluded group a summary
 * covers is `summarised`, otherwise `excluded`; then any stub → `stubbed`, any trim → `trimmed`,
 * a protected decision with no change → `protected`, else `kept`.
 */
export function groupStatuses(
  groupIds: readonly string[],
  decisions: readonly Decision[],
): GroupStatus[] {
  const excluded = new Set<string>()
  const covered = new Set<string>()
  const stubbed = new Set<string>()
  const trimmed = new Set<string>()
  const guarded = new Set<string>()
  for (const d of decisions) {
    switch (d.kind) {
      case 'exclude':
        excluded.add(d.groupId)
        break
      case 'insert':
        for (const g of d.covers) covered.add(g)
        break
      case 'stub':
        stubbed.add(d.groupId)
        break
      case 'trim':
        trimmed.add(d.groupId)
        break
      case 'protected':
        guarded.add(d.groupId)
        break
      case 'skip':
      case 'failed_open':
        break
      default: {
        const unknownDecision: never = d
        return unknownDecision
      }
    }
  }
  return groupIds.map((id) => {
    if (excluded.has(id)) return covered.has(id) ? 'summarised' : 'excluded'
    if (stubbed.has(id)) return 'stubbed'
    if (trimmed.has(id)) return 'trimmed'
    if (guarded.has(id)) return 'protected'
    return 'kept'
  })
}

export function toWireDecision(d: Decision): WireDecision {
  return {
    kind: d.kind,
    strategy: d.strategy,
    step: d.step,
    reason: d.reason,
    detail: d.detail,
    groupId: d.groupId,
    tokensBefore: d.tokensBefore,
    tokensAfter: d.tokensAfter,
    ...(d.fixed !== undefined ? { fixed: d.fixed } : {}),
    ...(d.round !== undefined ? { round: d.round } : {}),
  }
}

/** What a run's "before" side is: it depends on the conversation and counter, not the config. */
interface BeforeSide {
  readonly budget: BudgetCategories
  readonly tokens: Float64Array
  /** Message id → index of its group, to map projected messages back. */
  readonly groupOfId: ReadonlyMap<string, number>
  readonly systemGroup: number
}

// Keyed by the pricing object, which lives as long as its (conversation, counter) cache entry.
const beforeCache = new WeakMap<BudgetPricing, BeforeSide>()

function beforeSide(prepared: Prepared, pricing: BudgetPricing): BeforeSide {
  const cached = beforeCache.get(pricing)
  if (cached) return cached
  const { grouping, conversation } = prepared
  const tokens = new Float64Array(grouping.groups.length)
  const groupOfId = new Map<string, number>()
  conversation.messages.forEach((m, i) => {
    const g = grouping.groupOfMessage[i] as number
    groupOfId.set(m.id, g)
    tokens[g] = (tokens[g] as number) + pricing.message(m).total
  })
  // The top-level system prompt is a group without messages.
  const system = grouping.groups.find((g) => g.kind === 'system' && g.messages.length === 0)
  if (system) tokens[system.index] = pricing.static.system
  const side: BeforeSide = {
    budget: pricing.budget(conversation, false),
    tokens,
    groupOfId,
    systemGroup: system?.index ?? -1,
  }
  beforeCache.set(pricing, side)
  return side
}

/** Tokens per original group, before and after: projection messages map back by message id. */
export function groupTokens(
  prepared: Prepared,
  pricing: BudgetPricing,
  projection: Conversation,
): { before: Float64Array; after: Float64Array } {
  const side = beforeSide(prepared, pricing)
  const after = new Float64Array(side.tokens.length)
  for (const m of projection.messages) {
    const g = side.groupOfId.get(m.id)
    // Inserted summaries belong to no original group: they count under `stubs` only.
    if (g !== undefined) after[g] = (after[g] as number) + pricing.projected(m).total
  }
  if (side.systemGroup >= 0) {
    after[side.systemGroup] = projection.system.length > 0 ? pricing.static.system : 0
  }
  // A copy: a summary's arrays are transferred to the UI thread, which detaches them.
  return { before: side.tokens.slice(), after }
}

export function replayArrays(points: readonly ReplayPoint[]): ReplaySeries {
  const n = points.length
  const index = new Int32Array(n)
  const before = new Float64Array(n)
  const after = new Float64Array(n)
  const reported = new Float64Array(n)
  const costBefore = new Float64Array(n)
  const costAfter = new Float64Array(n)
  const rewrites = new Float64Array(n)
  const fired: string[][] = []
  points.forEach((p, i) => {
    index[i] = p.index
    before[i] = p.before
    after[i] = p.after
    reported[i] = p.reported ?? Number.NaN
    costBefore[i] = p.cost.before ?? Number.NaN
    costAfter[i] = p.cost.after ?? Number.NaN
    rewrites[i] = p.rewriteTokens
    fired.push([...p.fired])
  })
  return {
    index,
    before,
    after,
    reported,
    fired,
    costBefore,
    costAfter,
    rewrites,
    cost: sessionCost(points),
  }
}

/** The price the session's model is costed at, as the UI shows and edits it. */
function wirePrice(
  conversation: Conversation,
  config: CompactionConfig,
): RunSummary['accounting']['price'] {
  const model =
    conversation.messages.find((m) => m.role === 'assistant' && m.model)?.model ??
    conversation.meta.model ??
    ''
  const { cacheTtl: _ttl, caching: _caching, ...overrides } = config.pricing ?? {}
  void [_ttl, _caching]
  const matched = priceFor(model, overrides)
  if (!matched) return null
  return {
    model,
    name: matched.entry?.name ?? 'your prices',
    source: matched.entry?.source ?? 'the config',
    checked: matched.entry?.checked ?? '',
    overridden: matched.overridden,
    ...matched.price,
  }
}

/** Build the summary of a finished compaction (exported for tests of the pieces). */
export function summarize(
  entry: { prepared: Prepared; pricing: BudgetPricing },
  config: CompactionConfig,
  result: CompactionResult,
  points: readonly ReplayPoint[] | null,
  ms: number,
  risk: RiskReport = riskOfRun(entry.prepared, result),
): RunSummary {
  const { prepared, pricing } = entry
  // The headline is the reconciled context of the next model call; the bars break it down.
  const rec = result.reconciliation
  const budgetBefore = reconciledBudget(
    prepared,
    pricing,
    prepared.conversation,
    false,
    result.tokensBefore,
    rec,
  )
  const budgetAfter = reconciledBudget(
    prepared,
    pricing,
    result.projection,
    true,
    result.tokensAfter,
    rec,
  )
  const groups = prepared.grouping.groups
  const ids = groups.map((g) => g.id)
  const tokens = groupTokens(prepared, pricing, result.projection)
  const window = usableWindow(config.window)
  return {
    configName: config.name,
    tokenizer: prepared.counter.id,
    exact: prepared.counter.exact,
    tokens: {
      before: result.tokensBefore,
      after: result.tokensAfter,
      window: window.contextTokens,
      reservedOutput: window.reservedOutput,
      buffer: window.buffer,
      usable: window.usable,
    },
    budget: { before: budgetBefore, after: budgetAfter },
    groups: {
      ids,
      kinds: groups.map((g) => g.kind),
      status: groupStatuses(ids, result.decisions),
      tokensBefore: tokens.before,
      tokensAfter: tokens.after,
      ...groupFacts(prepared),
    },
    upstream: upstreamMarkers(prepared.conversation),
    accounting: {
      figure: describeFigure(rec),
      reconciliation: summarizeReconciliation(rec),
      price: wirePrice(prepared.conversation, config),
      caching: cachingOf(prepared.conversation, config.pricing?.caching).why,
    },
    triggers: triggerLevels(config, window.usable),
    decisions: result.decisions.slice(0, MAX_DECISIONS).map(toWireDecision),
    decisionCount: result.decisions.length,
    changes: result.changes,
    noChange: explainNoChange({
      changes: result.changes,
      steps: result.steps,
      decisions: result.decisions,
      tokensBefore: result.tokensBefore,
      usable: window.usable,
      fallbackRan: result.fallbackRan,
    }),
    invariants: {
      ok: result.invariants.ok,
      checks: result.invariants.checks.map((c) => ({
        id: c.id,
        ok: c.ok,
        detail: c.detail,
        offenders: [...c.offenders],
        groups: offenderGroups(prepared, c.offenders),
      })),
    },
    steps: result.steps.map((s) => ({
      index: s.index,
      strategy: s.strategy,
      status: s.status,
      why: s.why,
    })),
    replay: points ? replayArrays(points) : null,
    replayPending: false,
    risk: runRisk(risk),
    ms,
  }
}

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
  const started = performance.now()
  const checkpoint = options.checkpoint ?? (() => true)
  const resolved = resolveConfig(config, options.preset)
  if (!resolved.ok) return { kind: 'invalid', issues: resolved.issues }
  const cache = options.cache ?? defaultCache
  if (!cache.has(conversation, counter) && !(await checkpoint('prepare'))) return { kind: 'stale' }
  const entry = cache.get(conversation, counter)
  if (!(await checkpoint('compact'))) return { kind: 'stale' }
  const engineConfig = toEngineConfig(resolved.config)
  const deps = { counter, summarizer: createDigestSummarizer() }
  const result = await compact(entry.prepared, engineConfig, deps, STRATEGY_REGISTRY)
  let points: ReplayPoint[] | null = null
  if (options.replay) {
    if (!(await checkpoint('replay'))) return { kind: 'stale' }
    points = await replay(entry.prepared, engineConfig, deps, STRATEGY_REGISTRY)
  }
  if (!(await checkpoint('summarize'))) return { kind: 'stale' }
  const risk = riskOfRun(entry.prepared, result)
  const summary = {
    ...summarize(entry, resolved.config, result, points, 0, risk),
    ms: performance.now() - started,
  }
  const record: RunRecord = {
    config: resolved.config,
    result,
    prepared: entry.prepared,
    pricing: entry.pricing,
    summary,
    risk,
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
  const deps = { counter: record.prepared.counter, summarizer: createDigestSummarizer() }
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
  const arrays: ArrayBufferView[] = [
    g.tokensBefore,
    g.tokensAfter,
    g.turns,
    g.firstMessage,
    g.messageCounts,
  ]
  if (summary.replay) {
    const r = summary.replay
    arrays.push(r.index, r.before, r.after, r.reported, r.costBefore, r.costAfter, r.rewrites)
  }
  return arrays.map((a) => a.buffer as ArrayBuffer)
}
