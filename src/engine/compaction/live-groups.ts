/**
 * The live groups of a view (visible and not excluded), in order, carried across replay calls.
 *
 * Replay runs the pipeline at every model call on one view, and by the middle of a long session
 * almost every group is excluded (summarised or dropped by the fallback). A strategy that walked
 * `visibleGroups()` and skipped the excluded ones paid for every group of the conversation at
 * every call: quadratic in the session's length (the 200 MB CLI run, issue 14). This list is
 * updated from the view's change log instead: newly visible groups are appended, groups excluded
 * since the last call are filtered out, and only a rollback (which may bring groups back) or a
 * view that moved backwards makes it start over.
 */
import type { WorkingView } from './view.ts'

interface LiveState {
  /** Live group indexes, ascending. */
  readonly list: number[]
  /** How many visible groups the list has seen. */
  visibleCount: number
  /** The view's change mark when the list was last brought up to date. */
  mark: number
}

const states = new WeakMap<WorkingView, LiveState>()

/**
 * Indexes of the view's visible groups that are not excluded, ascending — the same groups, in the
 * same order, as `visibleGroups()` filtered by `!isExcluded`. A shared array, valid until the view
 * changes: read it at once, copy it to keep it.
 */
export function liveGroups(view: WorkingView): readonly number[] {
  const visible = view.visibleGroups()
  let state = states.get(view)
  if (!state || visible.length < state.visibleCount || !upToDate(view, state)) {
    state = { list: [], visibleCount: 0, mark: 0 }
    states.set(view, state)
  }
  const { list } = state
  for (let i = state.visibleCount; i < visible.length; i++) {
    const g = (visible[i] as (typeof visible)[number]).index
    if (!view.isExcluded(g)) list.push(g)
  }
  state.visibleCount = visible.length
  state.mark = view.changeMark
  return list
}

/**
 * Bring `state.list` up to the view's current exclusions from the changes logged since its mark;
 * false when a rollback happened (an exclusion may have been undone: the list is made again).
 */
function upToDate(view: WorkingView, state: LiveState): boolean {
  if (state.mark === view.changeMark) return true
  const { groupOfMessage } = view.prepared.grouping
  let excluded = false
  // An exclusion is logged as the group's first message; -1 is a rollback (or a group without
  // messages excluded, which is rare enough to start over for).
  for (const m of view.changesSince(state.mark)) {
    if (m < 0) return false
    if (view.isExcluded(groupOfMessage[m] as number)) excluded = true
  }
  if (excluded) {
    const { list } = state
    let kept = 0
    for (const g of list) if (!view.isExcluded(g)) list[kept++] = g
    list.length = kept
  }
  return true
}

/**
 * The first message of the oldest group the view still holds: every visible message below it is
 * in an excluded group (groups are ordered by their first message, and a group's first message is
 * its earliest). Infinity when no group with messages is left. A walk from the newest message
 * back, which steps over excluded groups, can stop here: late in a long replay nearly all of the
 * history lies below it.
 */
export function lowestLiveMessage(view: WorkingView): number {
  const { groups } = view.prepared.grouping
  for (const g of liveGroups(view)) {
    const first = groups[g]?.messages[0]
    if (first !== undefined) return first
  }
  return Number.POSITIVE_INFINITY
}
