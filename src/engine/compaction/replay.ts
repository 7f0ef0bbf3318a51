import { runPipeline, type StrategyRegistry } from './pipeline.ts'
import type { Prepared } from './prepared.ts'
import { isChange } from './run.ts'
import type { EngineConfig, EngineDeps } from './types.ts'
import { WorkingView } from './view.ts'
import { accountingFor } from '../accounting/index.ts'
import { contextPlan } from '../accounting/plan.ts'
import { CostTracker } from '../cost/tracker.ts'

export interface ReplayPoint {
  /** Index of the assistant message this model call produced. */
  readonly index: number
  readonly messageId: string
  /**
   * The reconstructed context of this call with no compaction of ours (hidden prefix + scale ×
   * what the log shows it received, provider rules applied): the reconciled figure.
   */
  readonly before: number
  /** The same figure under the config, with every earlier decision still in force. */
  readonly after: number
  /** Strategies that changed something at this call. */
  readonly fired: readonly string[]
  /** The prompt size the transcript itself reported for this call, when present. */
  readonly reported?: number
  /** An upstream compaction (from the source agent) happened right before this call. */
  readonly upstreamCompaction?: boolean
  /** The sub-agent / sidechain whose call this is (absent for the main agent). */
  readonly thread?: string
  /** USD of this call uncompacted and under the config (null: no price for its model). */
  readonly cost: { readonly before: number | null; readonly after: number | null }
  /** Modelled tokens read from the prompt cache, uncompacted context. */
  readonly cacheRead: number
  /** Modelled cache read under the config. */
  readonly cacheReadAfter: number
  /** The transcript's own cache read for this call, when it reported one. */
  readonly reportedCacheRead?: number
  /** Tokens the config made the provider write again instead of reading them from the cache. */
  readonly rewriteTokens: number
  /** What those re-writes cost over cache reads (USD), null without a price. */
  readonly rewriteCost: number | null
}

export interface ReplayHooks {
  /**
   * Called before every model call with (done, total); returning (or resolving) false abandons
   * the replay, which then returns null. The caller decides how often to really pause: the
   * worker yields to its message queue every few milliseconds so a newer run can cancel a long
   * replay. It never influences a decision.
   */
  readonly checkpoint?: (done: number, total: number) => Promise<boolean> | boolean
}

/**
 * Replay the conversation model call by model call (SPEC §5): before each assistant message the
 * engine sees the context the agent had, runs the pipeline on it, and keeps its decisions for the
 * next call, as an agent loop would — the sawtooth a real agent sees. One view moves forward, so
 * each call costs only what its triggered steps cost.
 */
export async function replay(
  prepared: Prepared,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
): Promise<ReplayPoint[]> {
  // Without a checkpoint nothing can abandon the replay: it always returns its points.
  return (await replayCancellable(prepared, config, deps, registry, {})) ?? []
}

/** {@link replay} with a checkpoint every few calls; null when the checkpoint abandoned it. */
export async function replayCancellable(
  prepared: Prepared,
  config: EngineConfig,
  deps: EngineDeps,
  registry: StrategyRegistry,
  hooks: ReplayHooks,
): Promise<ReplayPoint[] | null> {
  const accounting = accountingFor(prepared, config.accounting)
  const figures = accounting.reconciliation.figures
  const view = new WorkingView(prepared, 0, accounting.perCall)
  // The same calls with no compaction at all: the cache model's "before" prompt.
  const untouched = new WorkingView(prepared, 0, accounting.perCall)
  const costs = new CostTracker(prepared.conversation, contextPlan(prepared), config.pricing)
  const firstMessageOf = new Map(prepared.grouping.groups.map((g) => [g.id, g.messages[0] ?? -1]))
  const points: ReplayPoint[] = []
  for (const figure of figures) {
    if (hooks.checkpoint && !(await hooks.checkpoint(points.length, figures.length))) return null
    view.advanceTo(figure.index)
    untouched.advanceTo(figure.index)
    const outcome = await runPipeline(view, config, deps, registry, { recordNonChanges: false })
    const changes = outcome.decisions.filter(isChange)
    const fired = [...new Set(changes.map((d) => d.strategy))]
    let changed = Infinity
    for (const d of changes) {
      const at =
        d.kind === 'stub' || d.kind === 'trim'
          ? d.target.message
          : (firstMessageOf.get(d.groupId) ?? -1)
      if (at >= 0) changed = Math.min(changed, at)
    }
    const cost = costs.observe(figure, untouched, view, changed)
    points.push({
      index: figure.index,
      messageId: figure.messageId,
      before: figure.estimate,
      after: view.contextTokens,
      fired,
      ...(figure.reported !== undefined ? { reported: figure.reported } : {}),
      ...(figure.upstreamCompaction ? { upstreamCompaction: true } : {}),
      ...(figure.thread !== 'main' ? { thread: figure.thread } : {}),
      cost: { before: cost.before, after: cost.after },
      cacheRead: cost.cacheRead,
      cacheReadAfter: cost.cacheReadAfter,
      ...(cost.reportedCacheRead !== undefined
        ? { reportedCacheRead: cost.reportedCacheRead }
        : {}),
      rewriteTokens: cost.rewriteTokens,
      rewriteCost: cost.rewriteCost,
    })
  }
  return points
}
