import type { EngineConfig, StepConfig } from '../engine/compaction/types.ts'

/**
 * Multiply the window and every absolute token threshold of a config by `factor`, so that a preset
 * written for a 200k window fires on a transcript of any size (corpus tests, benchmarks). Fractions
 * of the window scale with it by themselves. Per-result floors (`minToolOutputTokens`,
 * `protectTokens`, …) scale too, so a scaled preset may touch fewer results than the original.
 */
const TOKEN_PARAMS =
  /^(tokenThreshold|triggerInputTokens|tokenBudget|maxTokens|minimumTokens|protectTokens|clearAtLeast|minToolOutputTokens)$/

export function scale(config: EngineConfig, factor: number): EngineConfig {
  // Zero (no minimum, no clear_at_least) stays zero: only positive figures scale.
  const n = (x: number) => (x === 0 ? 0 : Math.max(1, Math.round(x * factor)))
  const step = (s: StepConfig): StepConfig => {
    const params: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(s.params)) {
      const tokenMetric = (k === 'maxN' || k === 'compactTo') && s.params.metric === 'tokens'
      params[k] = typeof v === 'number' && (TOKEN_PARAMS.test(k) || tokenMetric) ? n(v) : v
    }
    return {
      ...s,
      params,
      ...(s.trigger
        ? {
            trigger: {
              ...s.trigger,
              conditions: s.trigger.conditions.map((c) =>
                c.kind === 'tokens' ? { ...c, over: n(c.over) } : c,
              ),
            },
          }
        : {}),
      ...(s.target
        ? {
            target:
              s.target.kind === 'tokens' ? { ...s.target, under: n(s.target.under) } : s.target,
          }
        : {}),
    }
  }
  return {
    ...config,
    window: {
      contextTokens: n(config.window.contextTokens),
      reservedOutput: Math.round(config.window.reservedOutput * factor),
      buffer: 0,
    },
    pipeline: config.pipeline.map(step),
  }
}

export const usableOf = (config: EngineConfig): number =>
  config.window.contextTokens - config.window.reservedOutput - config.window.buffer

/** The config scaled so that its usable window is `fraction` of `totalTokens`. */
export const scaleTo = (config: EngineConfig, totalTokens: number, fraction = 0.5): EngineConfig =>
  scale(config, (fraction * totalTokens) / usableOf(config))
