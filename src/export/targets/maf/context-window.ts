/**
 * Recognise the pipeline `ContextWindowCompactionStrategy` builds internally, so a config shaped
 * like it (the `maf-context-window` preset, or the same at other sizes) exports as the one-line
 * class instead of its expansion.
 *
 * MAF, with input budget B = max_context_window_tokens − max_output_tokens, E = int(B × eviction)
 * and T = int(B × truncation), runs two TokenBudgetComposedStrategy phases: budget E over
 * ToolResultCompactionStrategy(keep_last_tool_call_groups), then budget T over
 * TruncationStrategy(max_n=T, compact_to=E). Our engine spells each phase as the inner step(s)
 * with trigger "tokens over budget" followed by a strict `token-budget` step with that budget.
 */
import type { CompactionConfig } from '../../../config/schema.ts'

type Step = CompactionConfig['pipeline'][number]

export interface ContextWindowArgs {
  readonly maxContextWindowTokens: number
  readonly maxOutputTokens: number
  readonly toolEvictionThreshold: number
  readonly truncationThreshold: number
  readonly keepLastToolCallGroups: number
}

const DIGEST_CAP = 4096

function overTokens(step: Step | undefined): number | null {
  const c = step?.trigger?.conditions
  if (!step?.enabled || step.target || c?.length !== 1 || c[0]?.kind !== 'tokens') return null
  return c[0].over
}

function strictBudget(step: Step | undefined, budget: number): boolean {
  return (
    step?.strategy === 'token-budget' &&
    overTokens(step) === budget &&
    step.params.tokenBudget === budget &&
    step.params.fallback === true &&
    step.params.strict === true
  )
}

/** A fraction MAF turns into exactly `tokens` (it truncates `int(budget × fraction)`). */
function fractionFor(tokens: number, budget: number): number | null {
  // Up to three decimals: the fractions people write; anything finer reads better expanded.
  for (let digits = 1; digits <= 3; digits++) {
    const f = Number((tokens / budget).toFixed(digits))
    if (f > 0 && f <= 1 && Math.floor(budget * f) === tokens) return f
  }
  return null
}

/** The ContextWindowCompactionStrategy arguments this config is, or null if it is not one. */
export function matchContextWindow(config: CompactionConfig): ContextWindowArgs | null {
  const steps = config.pipeline
  if (steps.length !== 4) return null
  const [collapse, , truncation] = steps
  const evict = overTokens(collapse)
  const truncate = overTokens(truncation)
  if (evict === null || truncate === null || evict > truncate) return null
  if (
    collapse?.strategy !== 'collapse-tool-results' ||
    collapse.params.faithful !== false ||
    collapse.params.maxSummaryChars !== DIGEST_CAP
  ) {
    return null
  }
  if (!strictBudget(steps[1], evict) || !strictBudget(steps[3], truncate)) return null
  const tp = truncation?.params
  if (
    truncation?.strategy !== 'truncation' ||
    tp?.metric !== 'tokens' ||
    tp.maxN !== truncate ||
    tp.compactTo !== evict ||
    tp.preserveSystem !== true
  ) {
    return null
  }
  const { contextTokens, reservedOutput } = config.window
  const budget = contextTokens - reservedOutput
  const toolEvictionThreshold = fractionFor(evict, budget)
  const truncationThreshold = fractionFor(truncate, budget)
  if (toolEvictionThreshold === null || truncationThreshold === null) return null
  return {
    maxContextWindowTokens: contextTokens,
    maxOutputTokens: reservedOutput,
    toolEvictionThreshold,
    truncationThreshold,
    keepLastToolCallGroups: Number(collapse.params.keepLastToolCallGroups),
  }
}
