import { runPipeline, type StrategyRegistry } from './pipeline.ts'
import type { Prepared } from './prepared.ts'
import { isChange } from './run.ts'
import type { EngineConfig, EngineDeps } from './types.ts'
import { WorkingView } from './view.ts'
import { accountingFor } from '../accounting/index.ts'

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
  const points: ReplayPoint[] = []
  for (const figure of figures) {
    if (hooks.checkpoint && !(await hooks.checkpoint(points.length, figures.length))) return null
    view.advanceTo(figure.index)
    const outcome = await runPipeline(view, config, deps, registry, { recordNonChanges: false })
    const fired = [...new Set(outcome.decisions.filter(isChange).map((d) => d.strategy))]
    points.push({
      index: figure.index,
      messageId: figure.messageId,
      before: figure.estimate,
      after: view.contextTokens,
      fired,
      ...(figure.reported !== undefined ? { reported: figure.reported } : {}),
      ...(figure.upstreamCompaction ? { upstreamCompaction: true } : {}),
      ...(figure.thread !== 'main' ? { thread: figure.thread } : {}),
    })
  }
  return points
}
