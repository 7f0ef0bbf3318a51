/**
 * Plans carried across a replay. The strategy runs at every model call on one view; between two
 * calls the collection usually only grew (see `extendedCollection`), so the previous call's plan
 * index takes the new results and re-decides only the resources they touch: a call costs what is
 * new since the last one, not a re-plan of every result of the conversation.
 */
import { extendedCollection, forgetExtension, type ResultInfo } from './collect.ts'
import { PlanIndex } from './plan-index.ts'
import type { PlanParams } from './plan.ts'
import { keepPlan, planKey, sharedPlan, sharedStructure } from './shared.ts'

interface Carried {
  readonly results: readonly ResultInfo[]
  readonly index: PlanIndex
  /** Kept in shared.ts for other views: never changed, a later call plans afresh instead. */
  readonly shared: boolean
}

/** Per view (the replay's one working view), per parsed params object. */
const carried = new WeakMap<object, WeakMap<PlanParams, Carried>>()

/** The plan of `results` (under `p.faithful`'s occurrences) over `view`, reusing the last one. */
export function planResults(
  view: object,
  results: readonly ResultInfo[],
  p: PlanParams,
): PlanIndex {
  let byParams = carried.get(view)
  if (!byParams) {
    byParams = new WeakMap()
    carried.set(view, byParams)
  }
  const last = byParams.get(p)
  if (last && last.results === results) return last.index
  const mode = (r: ResultInfo) => (p.faithful ? r.faithful : r.fixed)
  if (!last) {
    // The first plan over this view: a re-plan (a fresh view per run) over the same collection
    // and params value takes the plan an earlier run made, untouched (see shared.ts).
    const key = planKey(p)
    let index = sharedPlan(results, key)
    if (!index) {
      // Another value of the step's own params over the same records decides over the lists
      // the first plan built (they depend on the records, the mode and writesMakeStale only).
      const lists = sharedStructure(results, p)
      if (lists) index = PlanIndex.borrowing(p, lists)
      else {
        index = new PlanIndex(p)
        index.addAll(results.map(mode))
      }
      keepPlan(results, p, key, index)
    }
    byParams.set(p, { results, index, shared: true })
    return index
  }
  const redone = last.shared ? null : redoneSince(results, last.results)
  let index: PlanIndex
  if (redone) {
    index = last.index
    // Positions below the cut hold the same results (or redone ones); the rest come again.
    const n = Math.min(last.results.length, redone.cut)
    index.truncate(n)
    const replaced = [...redone.positions].filter((i) => i < n)
    index.replace(replaced.map((i) => mode(results[i] as ResultInfo)))
    index.append(results.slice(n).map(mode))
  } else {
    index = new PlanIndex(p)
    index.addAll(results.map(mode))
  }
  byParams.set(p, { results, index, shared: false })
  // Each collection links to the one it was made from; kept, the links would hold every earlier
  // collection of a replay alive (calls × results: 8 GB on 130 copies of a Codex rollout). A
  // planner walks back only to the collection it planned last, so the link behind that one goes.
  if (last.results !== results) forgetExtension(last.results)
  return index
}

/**
 * When `results` was made from `earlier` over one or more collections: the positions redone on
 * the way and the lowest cut (below it, every other earlier record is the same object at the same
 * position); null when it was not.
 */
function redoneSince(
  results: readonly ResultInfo[],
  earlier: readonly ResultInfo[],
): { readonly positions: Set<number>; readonly cut: number } | null {
  const positions = new Set<number>()
  let cut = Infinity
  let r: readonly ResultInfo[] = results
  while (r !== earlier) {
    const ext = extendedCollection(r)
    if (!ext) return null
    for (const i of ext.redone) positions.add(i)
    cut = Math.min(cut, ext.cut)
    r = ext.from
  }
  return { positions, cut }
}
