import { runPipeline, type StrategyRegistry } from './pipeline.ts'
import type { Prepared } from './prepared.ts'
import { isChange } from './run.ts'
import type { EngineConfig, EngineDeps } from './types.ts'
import { WorkingView } from './view.ts'

export interface ReplayPoint {
  /** Index of the assistant message this model call produced. */
  readonly index: number
  readonly messageId: string
  /** Context the call would have had with no compaction at all. */
  readonly before: number
  /** Context under the config, with every earlier decision still in force. */
  readonly after: number
  /** Strategies that changed something at this call. */
  readonly fired: readonly string[]
  /** The prompt size the transcript itself reported for this call, when present. */
  readonly reported?: number
  /** An upstream compaction (from the source agent) happened right before this call. */
  readonly upstreamCompaction?: boolean
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
  const { messages, markers } = prepared.conversation
  const markerAt = new Set(markers.map((m) => m.beforeIndex))
  const view = new WorkingView(prepared, 0)
  const points: ReplayPoint[] = []
  let before = prepared.staticTokens + prepared.systemTokens
  let upstream = false
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k]
    if (!m) continue
    if (markerAt.has(k)) upstream = true
    if (m.role === 'assistant' && !m.summaryOf && k > 0) {
      view.advanceTo(k)
      const outcome = await runPipeline(view, config, deps, registry, { recordNonChanges: false })
      const fired = [...new Set(outcome.decisions.filter(isChange).map((d) => d.strategy))]
      points.push({
        index: k,
        messageId: m.id,
        before,
        after: view.totalTokens,
        fired,
        ...(m.usage?.contextTokens !== undefined ? { reported: m.usage.contextTokens } : {}),
        ...(upstream ? { upstreamCompaction: true } : {}),
      })
      upstream = false
    }
    before += prepared.messageTokens[k] as number
  }
  return points
}
