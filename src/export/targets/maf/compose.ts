/**
 * Phases: a `token-budget` step and the steps right before it that are triggered at its budget
 * become one `TokenBudgetComposedStrategy(token_budget, tokenizer, strategies, early_stop)`, which
 * is how MAF runs strategies only when over a budget and then falls back to dropping groups.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { fmt } from '../index-helpers.ts'
import { pyBool, pyInt, targetTokenCount, triggerTokens, type Warnings } from './python.ts'
import type { Unit } from './strategies.ts'

type Step = CompactionConfig['pipeline'][number]

/** Strategies `mafStrategy` can translate (so they may sit inside a composed phase). */
export const COMPOSABLE = new Set([
  'collapse-tool-results',
  'selective-tool-calls',
  'sliding-window',
  'truncation',
  'summarize',
])

/** For each token-budget step, the indexes of the steps right before it that it composes. */
export function phases(steps: readonly Step[], usable: number): Map<number, number[]> {
  const out = new Map<number, number[]>()
  const taken = new Set<number>()
  steps.forEach((step, j) => {
    if (!step.enabled || step.strategy !== 'token-budget') return
    const budget = typeof step.params.tokenBudget === 'number' ? step.params.tokenBudget : usable
    const inner: number[] = []
    for (let k = j - 1; k >= 0; k--) {
      const s = steps[k] as Step
      if (!s.enabled) continue
      if (taken.has(k) || !COMPOSABLE.has(s.strategy)) break
      if (triggerTokens(s.trigger, usable) !== budget) break
      inner.unshift(k)
    }
    inner.forEach((k) => taken.add(k))
    out.set(j, inner)
  })
  return out
}

export function composed(budget: number, inner: readonly string[], earlyStop: boolean): string {
  const list =
    inner.length === 0
      ? '[]'
      : `[\n${inner.map((s) => `        ${s.replace(/\n/g, '\n        ')},`).join('\n')}\n    ]`
  const args = [`token_budget=${pyInt(budget)}`, 'tokenizer=tokenizer', `strategies=${list}`]
  if (!earlyStop) args.push(`early_stop=${pyBool(false)}`)
  return `TokenBudgetComposedStrategy(\n    ${args.join(',\n    ')},\n)`
}

/** What a composed strategy does, as a clause: inner strategies, then oldest groups dropped. */
export function composedDoes(budget: number, inner: readonly Unit[]): string {
  const first = inner.length > 0 ? `${inner.map((u) => u.does).join(', then ')}, then ` : ''
  return `once over ${fmt(budget)} tokens ${first}drops the oldest groups (the system messages last) until at most ${fmt(budget)} remain`
}

export function budgetStep(
  steps: readonly Step[],
  j: number,
  innerIdx: readonly number[],
  innerUnits: readonly Unit[],
  usable: number,
  w: Warnings,
): Unit {
  const inner = innerUnits.map((u) => u.expr)
  const step = steps[j] as Step
  const p = step.params
  const at = (k: string) => `pipeline[${j}].params.${k}`
  const budget = typeof p.tokenBudget === 'number' ? p.tokenBudget : usable
  if (typeof p.tokenBudget !== 'number') {
    w.add(
      at('tokenBudget'),
      'The default budget (usable window minus the transcript’s tool definitions) depends on the transcript; MAF needs a number.',
      `token_budget=${budget} (the usable window); lower it by your tool definitions’ tokens.`,
    )
  }
  const own = triggerTokens(step.trigger, usable)
  if (step.trigger && own !== budget) {
    w.add(
      `pipeline[${j}].trigger`,
      'TokenBudgetComposedStrategy acts whenever included tokens exceed its budget; it has no other trigger.',
      `It runs whenever over ${budget} tokens.`,
    )
  }
  if (p.fallback === false) {
    w.add(
      at('fallback'),
      'TokenBudgetComposedStrategy always runs its fallback (drop oldest non-system groups).',
      'Oldest groups are dropped until under budget.',
    )
  }
  if (p.strict !== true) {
    w.add(
      at('strict'),
      'TokenBudgetComposedStrategy always runs its strict fallback after the first one.',
      'If still over budget, system groups are dropped too.',
    )
  }
  if (step.target && targetTokenCount(step.target, usable) !== budget) {
    w.add(
      `pipeline[${j}].target`,
      'A composed strategy stops at its own budget, not at a separate target.',
      `It stops once at most ${budget} tokens are included.`,
    )
  }
  // early_stop (default True) stops between inner strategies once under budget; our steps do so
  // only when each carries a target at that budget.
  const stops = innerIdx.map((k) => targetTokenCount(steps[k]?.target, usable))
  stops.forEach((t, n) => {
    if (t !== null && t !== budget) {
      w.add(
        `pipeline[${innerIdx[n]}].target`,
        'Inside a TokenBudgetComposedStrategy the only early stop is at its budget.',
        `It stops at ${budget} tokens instead.`,
      )
    }
  })
  const earlyStop = innerIdx.length <= 1 || stops.every((t) => t === budget)
  return { expr: composed(budget, inner, earlyStop), does: composedDoes(budget, innerUnits) }
}
