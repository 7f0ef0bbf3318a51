import type { StrategyContext } from './context.ts'

/**
 * The newest visible, included non-system group (or the newest included group if only system
 * groups remain): never excluded by truncation or the fallback, so the projection is never empty
 * (MAF's "minimum retained group").
 */
export function minimumRetainedGroup(ctx: StrategyContext): number {
  const groups = ctx.groups().filter((g) => !ctx.view.isExcluded(g.index))
  const nonSystem = groups.filter((g) => g.kind !== 'system')
  const pick = nonSystem[nonSystem.length - 1] ?? groups[groups.length - 1]
  return pick ? pick.index : -1
}

/**
 * Final fallback (SPEC §5): exclude the oldest non-protected groups, keeping the minimum retained
 * group, until under `budget`; in strict mode then drop system groups too (MAF's strict fallback)
 * — recorded with its own reason so the UI can show which anchors were sacrificed.
 */
export function runFallback(ctx: StrategyContext, budget: number, strict: boolean): void {
  const keep = minimumRetainedGroup(ctx)
  for (const g of ctx.groups()) {
    if (ctx.totalTokens() <= budget) return
    if (g.index === keep || g.kind === 'system' || ctx.view.isExcluded(g.index)) continue
    ctx.exclude(
      g.index,
      'token_budget_fallback',
      `fallback: context ${ctx.totalTokens()} tokens is over the budget of ${Math.round(budget)}; dropped the oldest group`,
    )
  }
  if (!strict || ctx.totalTokens() <= budget) {
    if (ctx.totalTokens() > budget) {
      ctx.skip(
        keep,
        'protected',
        `still ${ctx.totalTokens()} tokens, over the budget of ${Math.round(budget)}: only protected groups and the newest group remain`,
      )
    }
    return
  }
  for (const g of ctx.groups()) {
    if (ctx.totalTokens() <= budget) return
    if (g.kind !== 'system' || g.index === keep || ctx.view.isExcluded(g.index)) continue
    ctx.excludeUnprotected(
      g.index,
      'token_budget_fallback_strict',
      `strict fallback: still over the budget of ${Math.round(budget)}, so the system prompt was dropped too`,
    )
  }
}
