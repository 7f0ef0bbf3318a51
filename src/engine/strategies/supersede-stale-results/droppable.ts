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
  // Plain loops, stopping at the first answer: this runs for every group holding a drop (hundreds
  // per re-plan), and the arrays and closures of `map`/`filter`/`every` per group showed.
  const { view, pairing } = ctx
  const { groups } = view.prepared.grouping
  for (const g of candidates) {
    const group = groups[g]
    if (!group) continue
    // Every visible result is a drop; the first one records the exclusion.
    let first = -1
    let allDrops = true
    for (const x of group.results) {
      const r = pairing.results[x]
      if (!r || !ctx.visible(r.message)) continue
      const at = indexOf(r.message, r.part)
      if (first < 0) first = at
      if (outcomes[at]?.kind !== 'drop') {
        allDrops = false
        break
      }
    }
    if (!allDrops || first < 0 || !answered(ctx, group.calls) || !textFree(view, g)) continue
    out.set(g, first)
  }
  return out
}

/** Every call has a visible result. */
function answered(ctx: StrategyContext, calls: readonly number[]): boolean {
  const { pairing } = ctx
  for (const c of calls) {
    const call = pairing.calls[c]
    if (!call) return false
    let seen = false
    for (const x of call.results)
      if (ctx.visible(pairing.results[x]?.message ?? Infinity)) {
        seen = true
        break
      }
    if (!seen) return false
  }
  return true
}

/** No message of the group carries non-blank text (as the view has it now). */
function textFree(view: StrategyContext['view'], g: number): boolean {
  const { messages } = view.prepared.conversation
  for (const m of view.messagesOf(g)) {
    const n = messages[m]?.parts.length ?? 0
    for (let i = 0; i < n; i++) {
      const pt = view.partAt(m, i)
      if (pt && pt.kind === 'text' && pt.text.trim() !== '') return false
    }
  }
  return true
}
