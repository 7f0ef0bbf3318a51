import type { StrategyRegistry } from '../compaction/pipeline.ts'
import type { AnyStrategy } from '../compaction/strategy.ts'
import { clearThinkingStrategy } from './clear-thinking.ts'
import { clearToolUsesStrategy } from './clear-tool-uses.ts'
import { collapseToolResultsStrategy } from './collapse-tool-results.ts'
import { microCompactStrategy } from './micro-compact.ts'
import { pruneToolOutputsStrategy } from './prune-tool-outputs.ts'
import { selectiveToolCallsStrategy } from './selective-tool-calls.ts'
import { slidingWindowStrategy } from './sliding-window.ts'
import { summarizeStrategy } from './summarize.ts'
import { supersedeStaleResultsStrategy } from './supersede-stale-results.ts'
import { tokenBudgetStrategy } from './token-budget.ts'
import { toolPayloadTrimStrategy } from './tool-payload-trim.ts'
import { toolResultBudgetStrategy } from './tool-result-budget.ts'
import { truncationStrategy } from './truncation.ts'

/** Every strategy, in the order the config editor lists them (cheapest, most targeted first). */
export const STRATEGIES: readonly AnyStrategy[] = [
  supersedeStaleResultsStrategy,
  toolPayloadTrimStrategy,
  toolResultBudgetStrategy,
  microCompactStrategy,
  pruneToolOutputsStrategy,
  clearToolUsesStrategy,
  clearThinkingStrategy,
  collapseToolResultsStrategy,
  selectiveToolCallsStrategy,
  slidingWindowStrategy,
  truncationStrategy,
  summarizeStrategy,
  tokenBudgetStrategy,
]

export const STRATEGY_REGISTRY: StrategyRegistry = new Map(STRATEGIES.map((s) => [s.id, s]))
