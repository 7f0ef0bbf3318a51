/**
 * Plans carried across a replay. The strategy runs at every model call on one view; between two
 * calls the collection usually only grew (see `extendedCollection`), so the previous call's plan
 * index takes the new results and re-decides only the resources they touch: a call costs what is
 * new since the last one, not a re-plan of every result of the conversation.
 */
import { extendedCollection, type ResultInfo } from './collect.ts'
import { PlanIndex } from './plan-index.ts'
import type { PlanParams } from './plan.ts'

interface Carried {
  readonly results: readonly ResultInfo[]
  readonly index: PlanIndex
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
  let index: PlanIndex
  if (last && extendsCollection(results, last.results)) {
    index = last.index
    index.append(results.slice(last.results.length).map(mode))
  } else {
    index = new PlanIndex(p)
    index.addAll(results.map(mode))
  }
  byParams.set(p, { results, index })
  return index
}

/** Was `results` made from `earlier` by appending, over one or more collections? */
function extendsCollection(
  results: readonly ResultInfo[],
  earlier: readonly ResultInfo[],
): boolean {
  let r: readonly ResultInfo[] | undefined = results
  while (r && r.length > earlier.length) r = extendedCollection(r)
  return r === earlier
}
