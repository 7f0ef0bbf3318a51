import type { StrategyContext } from '../compaction/context.ts'

/**
 * Agent Framework (Python) "minimum retained group": the newest included non-system group — or
 * the newest included group when only system groups remain — is never excluded by truncation or
 * by the token-budget fallbacks, so the projection is never empty (it may stay over budget: hard
 * case 20). Returns the group index, or -1 when nothing is included.
 *
 * Shared by `truncation`, `token-budget` and the pipeline's final fallback.
 */
export function minimumRetainedGroup(ctx: StrategyContext): number {
  const groups = ctx.groups()
  let newestSystem = -1
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]
    // Summaries are never dropped by truncation or fallbacks, so they need no retaining; skipping
    // them gives the same answer whether a summary was inserted in this run or is a group of a
    // re-run on the projection (idempotence).
    if (!g || ctx.view.isExcluded(g.index) || g.kind === 'summary') continue
    if (g.kind !== 'system') return g.index
    if (newestSystem < 0) newestSystem = g.index
  }
  return newestSystem
}

/** Record why the minimum retained group was left in place (a deliberate non-change). */
export function keepMinimumRetained(ctx: StrategyContext, group: number, why: string): void {
  if (group < 0) return
  const g = ctx.view.prepared.grouping.groups[group]
  const what = g ? `${g.kind} group ${g.id}` : `group #${group}`
  ctx.skip(
    group,
    'protected',
    `${why}: kept the newest ${what} (${ctx.view.groupTokens(group)} tokens) — the minimum retained group is never excluded, so the context is never empty`,
  )
}
