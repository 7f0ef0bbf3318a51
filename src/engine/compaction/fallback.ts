import { keepMinimumRetained, minimumRetainedGroup } from '../strategies/minimum-retained.ts'
import type { Group } from '../groups.ts'
import type { StrategyContext } from './context.ts'
import { liveGroups } from './live-groups.ts'

/**
 * Final fallback (SPEC §5): exclude the oldest non-protected groups, keeping the minimum retained
 * group, until under `budget`; in strict mode then drop system groups too (MAF's strict fallback)
 * — recorded with its own reason so the UI can show which anchors were sacrificed.
 */
export function runFallback(ctx: StrategyContext, budget: number, strict: boolean): void {
  const keep = minimumRetainedGroup(ctx)
  // The skip test comes before the budget test: the context only shrinks when a group is
  // dropped, and in a replay most groups walked past were dropped at earlier calls — reading the
  // context size for each of them made every call cost the whole history (quadratic).
  // The context figure is read once per drop (the sentence quotes it, the loop compares it) and
  // the budget turned into text once: thousands of drops per re-plan when most of history goes.
  let now = ctx.totalTokens()
  let over = now > budget
  // Everything after the figure, worded once: each drop's sentence, when read, is one join.
  const rest = ` tokens is over the budget of ${Math.round(budget)}; dropped the oldest group`
  // Only the groups still held: late in a long replay with the real window nearly all of history
  // is dropped, and stepping over it at every call (the fallback fired at most calls) was
  // quadratic. A copy: dropping groups changes the shared list.
  const { groups } = ctx.view.prepared.grouping
  for (const index of liveGroups(ctx.view).slice()) {
    const g = groups[index] as Group
    if (!over) return
    // Inserted summaries are kept: in a re-run they are ordinary groups, and dropping them there
    // but not here would make the fallback non-idempotent.
    if (
      g.index === keep ||
      g.kind === 'system' ||
      g.kind === 'summary' ||
      ctx.view.isExcluded(g.index)
    )
      continue
    const context = now
    ctx.exclude(g.index, 'token_budget_fallback', () => 'fallback: context ' + context + rest)
    now = ctx.totalTokens()
    over = now > budget
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
