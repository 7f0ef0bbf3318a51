import { keepMinimumRetained, minimumRetainedGroup } from '../strategies/minimum-retained.ts'
import type { StrategyContext } from './context.ts'

/**
 * Final fallback (SPEC §5): exclude the oldest non-protected groups, keeping the minimum retained
 * group, until under `budget`; in strict mode then drop system groups too (MAF's strict fallback)
 * — recorded with its own reason so the UI can show which anchors were sacrificed.
 */
export function runFallback(ctx: StrategyContext, budget: number, strict: boolean): void {
  const keep = minimumRetainedGroup(ctx)
  for (const g of ctx.groups()) {
    if (ctx.totalTokens() <= budget) return
    // Inserted summaries are kept: in a re-run they are ordinary groups, and dropping them there
    // but not here would make the fallback non-idempotent.
    if (
      g.index === keep ||
      g.kind === 'system' ||
      g.kind === 'summary' ||
      ctx.view.isExcluded(g.index)
    )
      continue
    ctx.exclude(
      g.index,
      'token_budget_fallback',
      `fallback: context ${ctx.totalTokens()} tokens is over the budget of ${Math.round(budget)}; dropped the oldest group`,
    )
  }
  if (!strict || ctx.totalTokens() <= budget) {
    if (ctx.totalTokens() > budget) {
      keepMinimumRetained(
        ctx,
        keep,
        `fallback: still ${ctx.totalTokens()} tokens, over the budget of ${Math.round(budget)}, with only protected groups left`,
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
