import type { z } from 'zod'
import type { StrategyContext } from './context.ts'

/**
 * One compaction strategy: a pure planner over a {@link StrategyContext}. It reads the current
 * state, then acts only through `ctx.exclude / ctx.replace / ctx.insert / ctx.skip`, which enforce
 * protections and record every decision with its reason. It must be deterministic (no clocks,
 * no randomness) and must not mutate the conversation.
 */
export interface StrategyDefinition<P extends object = Record<string, unknown>> {
  /** Stable id used in configs (`supersede-stale-results`, `tool-payload-trim`, …). */
  readonly id: string
  readonly label: string
  /** The system it reproduces ("llm-interactive-proxy", "@falai/agent", …). */
  readonly source: string
  /** One paragraph for the config editor: what it does and which defaults came from where. */
  readonly description: string
  /** Parameter schema with the source system's defaults; invalid params are rejected by it. */
  readonly schema: z.ZodType<P>
  run(ctx: StrategyContext, params: P): void | Promise<void>
}

/** Type-erased form stored in the registry. */
export type AnyStrategy = StrategyDefinition<object>

export function defineStrategy<P extends object>(def: StrategyDefinition<P>): AnyStrategy {
  return def as unknown as AnyStrategy
}
