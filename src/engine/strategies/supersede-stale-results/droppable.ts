// Whole groups supersede may drop rather than stub (maxStubsPerResource), found from the stale list.
import type { StrategyContext } from '../../compaction/context.ts'
import type { ResultInfo } from './collect.ts'
import type { Outcome } from './plan.ts'

/**
 * Groups that may be dropped whole for `maxStubsPerResource`: every visible result in them is a
 * drop, every call answered, and no message carries text of its own. Maps group → the result
 * index that records the exclusion. `stale`: the indexes of every stub or drop, ascending.
 */
export function droppableGroups(
  ctx: StrategyContext,
  results: readonly ResultInfo[],
  outcomes: readonly Outcome[],
  stale: readonly number[],
): Map<number, number> {
  const out = new Map<number, number>()
  // `stale` (ascending) holds every stub or drop: the drops' groups without a scan of all results.
  const candidates = new Set<number>()
  for (const i of stale)
    if (outcomes[i]?.kind === 'drop') candidates.add((results[i] as ResultInfo).group)
  if (candidates.size === 0) return out
  // Results are in (message, part) order: a binary search finds one without a map over them all.
  const indexOf = (message: number, part: number): number => {
    let lo = 0
    let hi = results.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const r = (results[mid] as ResultInfo).ref
      const d = r.message !== message ? r.message - message : r.part - part
      if (d === 0) return mid
      if (d < 0) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }
  for (const g of candidates) {
    const group = ctx.view.prepared.grouping.groups[g]
    if (!group) continue
    const visible = group.results
      .map((x) => ctx.pairing.results[x])
      .filter((x) => x && ctx.visible(x.message))
    const allDrops = visible.every(
      (x) => x && outcomes[indexOf(x.message, x.part)]?.kind === 'drop',
    )
    const answered = group.calls.every((c) =>
      ctx.pairing.calls[c]?.results.some((x) =>
        ctx.visible(ctx.pairing.results[x]?.message ?? Infinity),
      ),
    )
    const textFree = ctx.view
      .messagesOf(g)
      .every((m) =>
        ctx.view.currentParts(m).every((pt) => pt.kind !== 'text' || pt.text.trim() === ''),
      )
    const first = visible[0]
    if (allDrops && answered && textFree && first) out.set(g, indexOf(first.message, first.part))
  }
  return out
}
