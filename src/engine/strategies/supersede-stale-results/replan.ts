/**
 * Plans carried across a replay. The strategy runs at every model call on one view; between two
 * calls the collection usually only grew (see `extendedCollection`), so the previous call's plan
 * index takes the new results and re-decides only the resources they touch: a call costs what is
 * new since the last one, not a re-plan of every result of the conversation.
 */
import { extendedCollection, forgetExtension, type ResultInfo } from './collect.ts'
import { PlanIndex } from './plan-index.ts'
import type { PlanParams } from './plan.ts'

interface Carried {
  readonly results: readonly ResultInfo[]
  readonly index: PlanIndex
}

/** Per view (the replay's one working view), per parsed params object. */
const carried = new WeakMap<object, WeakMap<PlanParams, Carried>>()

/**
 * The last full plan per prepared conversation and params object, for the next view over it: a
 * re-plan (every config edit, every bench round) makes a fresh view whose collection holds the
 * very same records (collect.ts reuses them per prepared conversation), and a plan depends only
 * on the records and the params — so it is the same plan. An index handed out here is never
 * changed (`frozen`): several views may hold it, so a view carrying its plan forward (replay)
 * plans its next collection afresh instead and carries that one.
 */
const shared = new WeakMap<object, WeakMap<PlanParams, Carried>>()
const frozen = new WeakSet<PlanIndex>()

/** Same records at the same positions (the plan reads nothing else of them). */
function sameRecords(a: readonly ResultInfo[], b: readonly ResultInfo[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The plan of `results` (under `p.faithful`'s occurrences) over `view`, reusing the last one. */
export function planResults(
  view: { readonly prepared: object },
  results: readonly ResultInfo[],
  p: PlanParams,
): PlanIndex {
  let byParams = carried.get(view)
  if (!byParams) {
    byParams = new WeakMap()
    carried.set(view, byParams)
  }
  let sharedByParams = shared.get(view.prepared)
  if (!sharedByParams) {
    sharedByParams = new WeakMap()
    shared.set(view.prepared, sharedByParams)
  }
  const last = byParams.get(p)
  if (last && last.results === results) return last.index
  const mode = (r: ResultInfo) => (p.faithful ? r.faithful : r.fixed)
  const redone = last ? redoneSince(results, last.results) : null
  let index: PlanIndex
  if (last && redone && !frozen.has(last.index)) {
    index = last.index
    // Positions below the cut hold the same results (or redone ones); the rest come again.
    const n = Math.min(last.results.length, redone.cut)
    index.truncate(n)
    const replaced = [...redone.positions].filter((i) => i < n)
    index.replace(replaced.map((i) => mode(results[i] as ResultInfo)))
    index.append(results.slice(n).map(mode))
  } else {
    const before = sharedByParams.get(p)
    if (before && sameRecords(before.results, results)) index = before.index
    else {
      index = new PlanIndex(p)
      index.addAll(results.map(mode))
      // A view's first plan is offered to the next view; one made instead of carrying a frozen
      // plan forward (replay's second call) is this view's own, to carry from then on.
      if (!last) {
        sharedByParams.set(p, { results, index })
        frozen.add(index)
      }
    }
  }
  byParams.set(p, { results, index })
  // Each collection links to the one it was made from; kept, the links would hold every earlier
  // collection of a replay alive (calls × results: 8 GB on 130 copies of a Codex rollout). A
  // planner walks back only to the collection it planned last, so the link behind that one goes.
  if (last && last.results !== results) forgetExtension(last.results)
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
