import type { StrategyContext } from '../../compaction/context.ts'
import { liveGroups } from '../../compaction/live-groups.ts'
import type { PreservedTail } from '../preserve-tail.ts'

/**
 * `tailByGroups` (preserve-tail.ts) read from the end of the live groups: the last `count` live
 * non-system groups and the first message of the earliest of them. The same tail; it walks only as
 * many groups as it keeps instead of filtering every visible group, which at every model call of a
 * replay was quadratic in the session (1.7 s of the 200 MB CLI run, issue 14).
 */
export function tailOfLiveGroups(ctx: StrategyContext, count: number): PreservedTail {
  const label = `the last ${count} group${count === 1 ? '' : 's'}`
  const { groups } = ctx.view.prepared.grouping
  const live = liveGroups(ctx.view)
  const newestFirst: number[] = []
  let cut = Infinity
  for (let i = live.length - 1; i >= 0 && newestFirst.length < count; i--) {
    const g = live[i] as number
    if (groups[g]?.kind === 'system') continue
    newestFirst.push(g)
    const first = ctx.view.messagesOf(g)[0]
    if (first !== undefined && first < cut) cut = first
  }
  // Ascending, as tailByGroups makes it (callers may iterate it).
  const kept = new Set(newestFirst.reverse())
  return { unit: 'groups', count, groups: kept, cut, straddling: [], label }
}
