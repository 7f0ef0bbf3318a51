/**
 * Summarize: a finished compaction condensed into the `RunSummary` every view reads (budget,
 * per-group status and tokens, decisions, invariants, steps), per-group and per-call series as
 * typed arrays. Every figure is computed here once; no view derives its own.
 */
import type { CompactionResult } from '../engine/compaction/run.ts'
import { usableWindow } from '../engine/compaction/pipeline.ts'
import { explainNoChange } from '../engine/compaction/explain.ts'
import type { InvariantReport } from '../engine/compaction/invariants.ts'
import type { Prepared } from '../engine/compaction/prepared.ts'
import type { ReplayPoint } from '../engine/compaction/replay.ts'
import type { Decision } from '../engine/compaction/types.ts'
import { detailOf } from '../engine/compaction/sentence.ts'
import type { Conversation } from '../engine/model.ts'
import type { CompactionConfig } from '../config/schema.ts'
import type { BudgetPricing } from './budget.ts'
import { sessionCost } from '../engine/cost/summary.ts'
import { priceFor } from '../engine/cost/prices.ts'
import { cachingOf } from '../engine/cost/tracker.ts'
import { reconciledBudget } from './context-budget.ts'
import { describeFigure, summarizeReconciliation } from '../engine/accounting/index.ts'
import { decisionColumns } from './decisions.ts'
import { triggerLevels, upstreamMarkers, offenderGroups } from './facts.ts'
import { riskOfRun, runRisk } from './risk.ts'
import type { RiskReport } from '../engine/risk/index.ts'
import {
  MAX_DECISIONS,
  type GroupStatus,
  type BudgetCategories,
  type ReplaySeries,
  type RunSummary,
  type WireDecision,
} from './types.ts'

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

/** The invariants as the summary carries them, offenders mapped to their groups. */
export function wireInvariants(
  prepared: Prepared,
  invariants: InvariantReport,
): RunSummary['invariants'] {
  return {
    ok: invariants.ok,
    checks: invariants.checks.map((c) => ({
      id: c.id,
      ok: c.ok,
      detail: c.detail,
      offenders: [...c.offenders],
      groups: offenderGroups(prepared, c.offenders),
    })),
  }
}

export function toWireDecision(d: Decision): WireDecision {
  return {
    kind: d.kind,
    strategy: d.strategy,
    step: d.step,
    reason: d.reason,
    detail: detailOf(d),
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
  // Null: the risk is deferred (see `RunOptions.deferRisk`); the summary then says so with null.
  risk: RiskReport | null = riskOfRun(entry.prepared, result),
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
    },
    upstream: upstreamMarkers(prepared.conversation),
    accounting: {
      figure: describeFigure(rec),
      reconciliation: summarizeReconciliation(rec),
      price: wirePrice(prepared.conversation, config),
      caching: cachingOf(prepared.conversation, config.pricing?.caching).why,
    },
    triggers: triggerLevels(config, window.usable),
    decisions: decisionColumns(result.decisions.slice(0, MAX_DECISIONS)),
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
    invariants: wireInvariants(prepared, result.invariants),
    steps: result.steps.map((s) => ({
      index: s.index,
      strategy: s.strategy,
      status: s.status,
      why: s.why,
    })),
    replay: points ? replayArrays(points) : null,
    replayPending: false,
    settling: false,
    risk: risk ? runRisk(risk) : null,
    ms,
  }
}
