import { z } from 'zod'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import { internParams } from './intern-params.ts'
import { createStepRecords } from './step-records.ts'
import { keepMinimumRetained, minimumRetainedGroup } from './minimum-retained.ts'
import { includedMessageTokens, label } from './truncation/metrics.ts'

const schema = z.object({
  /** Included message tokens allowed (MAF `token_budget`); default: usable window − tool definitions. */
  tokenBudget: z
    .number()
    .int('tokenBudget must be a whole number')
    .positive('tokenBudget must be greater than 0')
    .optional(),
  /** Fallback 1: drop oldest non-system groups (keeping the minimum retained group) until under. */
  fallback: z.boolean().default(true),
  /** Fallback 2 ("strict"): then drop system groups too, oldest first, until under. */
  strict: z.boolean().default(false),
})

export type TokenBudgetParams = z.infer<typeof schema>

/**
 * This step's runs, played back on a view in the state one started from (step-records.ts): it
 * reads the view, the protections, its params and — without tokenBudget — the usable window.
 */
const records = createStepRecords()

export const tokenBudgetStrategy = defineStrategy<TokenBudgetParams>({
  id: 'token-budget',
  label: 'Token budget (fallbacks)',
  source: 'Microsoft Agent Framework (Python) TokenBudgetComposedStrategy',
  description:
    'The budget check and the two fallbacks of MAF’s TokenBudgetComposedStrategy; the composed inner strategies ' +
    'are the pipeline steps placed before it. When included message tokens (engine counts; tool definitions are ' +
    'not messages) exceed tokenBudget (default: the usable window minus tool definitions), fallback 1 drops the ' +
    'oldest non-system groups, never the minimum retained group (the newest included non-system group), until ' +
    'under budget (token_budget_fallback). If still over and strict is on, system groups are dropped oldest-first ' +
    '(token_budget_fallback_strict; the system protection must be off for that). MAF always runs both fallbacks: ' +
    'set strict: true to reproduce it. If the minimum retained group alone is over budget, it is kept and the ' +
    'decision says the context is still over budget. Summaries inserted by earlier steps are never dropped.',
  schema,
  run(ctx, params) {
    const p = internParams('token-budget', params)
    records.run(ctx, p, [p.tokenBudget === undefined ? ctx.window.usable : null], () =>
      tokenBudget(ctx, p),
    )
  },
})

function tokenBudget(ctx: StrategyContext, p: TokenBudgetParams): void {
  const budget = p.tokenBudget ?? Math.max(0, ctx.window.usable - ctx.view.prepared.staticTokens)
  const source = p.tokenBudget === undefined ? ' (usable window minus tool definitions)' : ''
  const keep = minimumRetainedGroup(ctx)
  const anchor = keep >= 0 ? keep : (ctx.groups().at(-1)?.index ?? -1)
  let current = includedMessageTokens(ctx)
  if (current <= budget) {
    if (anchor >= 0) {
      ctx.skip(
        anchor,
        'below_threshold',
        `Token budget: ${current} included message tokens fit the budget of ${budget}${source}; nothing dropped`,
      )
    }
    return
  }
  if (!p.fallback) {
    if (anchor >= 0) {
      ctx.skip(
        anchor,
        'denied_by_policy',
        `Token budget: ${current} included message tokens are over the budget of ${budget}${source}, but the fallback is disabled`,
      )
    }
    return
  }
  const start = current
  for (const g of ctx.groups()) {
    if (current <= budget) break
    if (ctx.view.isExcluded(g.index) || g.kind === 'system' || g.kind === 'summary') continue
    if (g.index === keep) continue
    const size = ctx.view.groupTokens(g.index)
    // `current` changes as the loop drops groups: the sentence quotes its value now.
    const now = current
    const detail = () =>
      `Token budget fallback: ${now} included message tokens > budget ${budget}${source} (was ${start}); dropped the oldest ${label(g)} (${size} tokens)`
    if (ctx.exclude(g.index, 'token_budget_fallback', detail)) current -= size
  }
  if (current > budget && p.strict) {
    for (const g of ctx.groups()) {
      if (current <= budget) break
      if (ctx.view.isExcluded(g.index) || g.kind !== 'system' || g.index === keep) continue
      const size = ctx.view.groupTokens(g.index)
      const now = current
      const detail = () =>
        `Strict token budget fallback: ${now} included message tokens still > budget ${budget}${source} after dropping non-system groups; dropped ${label(g)} (${size} tokens)`
      if (ctx.exclude(g.index, 'token_budget_fallback_strict', detail)) current -= size
    }
  }
  if (current > budget) {
    keepMinimumRetained(
      ctx,
      keep,
      `Token budget: still over budget, ${current} included message tokens > ${budget}${source}${p.strict ? '' : ' (strict fallback off)'}`,
    )
  }
}
