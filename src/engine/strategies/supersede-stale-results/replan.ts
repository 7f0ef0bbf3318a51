/**
 * Plans carried across a replay. The strategy runs at every model call on one view; between two
 * calls the collection usually only grew (see `CollectionLog`), so the plan index of the last call
 * that planned takes the new results and re-decides only the resources they touch: a call costs
 * what is new since then, not a re-plan of every result of the conversation.
 */
import type { ResultInfo } from './collect.ts'
import { collectionVersion, type CollectionVersion } from './collection-log.ts'
import { PlanIndex } from './plan-index.ts'
import type { PlanParams } from './plan.ts'
import { keepPlan, planKey, sharedPlan, sharedStructure } from './shared.ts'

interface Carried {
  readonly results: readonly ResultInfo[]
  /** How many results were planned (a replay's collection grows in place). */
  readonly length: number
  readonly index: PlanIndex
  /** Kept in shared.ts for other views: never changed, a later call plans afresh instead. */
  readonly shared: boolean
  /** Where `results` stands in its view's log, if it is registered there. */
  readonly at: CollectionVersion | undefined
}

/** Per view (the replay's one working view), per parsed params object. */
const carried = new WeakMap<object, WeakMap<PlanParams, Carried>>()

/**
 * The plan of `results` (under `p.faithful`'s occurrences) over `view`, reusing the last one.
 * `changesOnly`: the caller reads only the changes (a replay): a carried plan then re-decides less
 * (see `PlanIndex`), and the outcomes of results it cannot change may lag.
 */
export function planResults(
  view: object,
  results: readonly ResultInfo[],
  p: PlanParams,
  changesOnly = false,
): PlanIndex {
  let byParams = carried.get(view)
  if (!byParams) {
    byParams = new WeakMap()
    carried.set(view, byParams)
  }
  const last = byParams.get(p)
  const at = collectionVersion(results)
  // The same records: the same array at the same version (a replay changes its own in place).
  if (last && last.results === results && last.at === at) return last.index
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
    byParams.set(p, { results, length: results.length, index, shared: true, at })
    return index
  }
  const redone = last.shared ? null : redoneSince(last.at, at)
  let index: PlanIndex
  if (redone) {
    index = last.index
    // Positions below the cut hold the same results (or redone ones); the rest come again.
    const n = Math.min(last.length, redone.cut)
    index.truncate(n)
    const replaced = [...redone.positions].filter((i) => i < n)
    index.replace(replaced.map((i) => mode(results[i] as ResultInfo)))
    index.append(results.slice(n).map(mode))
  } else {
    index = new PlanIndex(p, undefined, changesOnly)
    index.addAll(results.map(mode))
  }
  byParams.set(p, { results, length: results.length, index, shared: false, at })
  return index
}

/**
 * When the collection at `to` was made from the one at `from` over one or more calls: the
 * positions redone on the way and the lowest cut (below it, every other earlier record is the
 * same object at the same position); null when it was not (another log: collected afresh).
 */
function redoneSince(
  from: CollectionVersion | undefined,
  to: CollectionVersion | undefined,
): { readonly positions: Set<number>; readonly cut: number } | null {
  if (!from || !to || from.log !== to.log || from.version > to.version) return null
  const positions = new Set<number>()
  let cut = Infinity
  for (let v = from.version; v < to.version; v++) {
    const edit = to.log.edits[v]
    if (!edit) return null
    for (const i of edit.redone) positions.add(i)
    cut = Math.min(cut, edit.cut)
  }
  return { positions, cut }
}
