/**
 * The older-use plan carried across a replay. Replay runs the strategy at every model call on one
 * view; above its trigger the plan used to walk every tool use since the start of the transcript
 * at every call (and usually concluded "below clear_at_least, nothing cleared"), so a replay cost
 * calls × uses (issue 14). Here each use's plan is kept per view and redone only when something
 * it read may have changed: a change logged on the view at its call or result message or its
 * group, a newly revealed message of its group or result, a `recent_turn` protection when the last
 * turn moves. A new thread, an upstream restart or a rollback starts over. A call then costs what
 * changed since the previous one.
 */
import { firstAtLeast } from '../../arrays.ts'
import { contextPlan } from '../../accounting/plan.ts'
import type { StrategyContext } from '../../compaction/context.ts'
import type { WorkingView } from '../../compaction/view.ts'
import { allToolUses, type Edit, type ToolUse } from './plan.ts'
import { planUse, type PlanRules, type UsePlan } from './plan-use.ts'

/** Which uses (indexes into `allToolUses`) each group and each message touches. */
interface UseIndex {
  readonly ofGroup: ReadonlyMap<number, readonly number[]>
  /** Uses whose call or one of whose results sits in the message. */
  readonly atMessage: ReadonlyMap<number, readonly number[]>
}

const indexes = new WeakMap<readonly ToolUse[], UseIndex>()

/**
 * Append use `i` under `key` (once). Module-level: the closure made per index build was compiled
 * again and again.
 */
function addUse(map: Map<number, number[]>, key: number, i: number): void {
  const list = map.get(key)
  if (!list) map.set(key, [i])
  else if (list[list.length - 1] !== i) list.push(i)
}

function useIndex(ctx: StrategyContext, all: readonly ToolUse[]): UseIndex {
  const hit = indexes.get(all)
  if (hit) return hit
  const ofGroup = new Map<number, number[]>()
  const atMessage = new Map<number, number[]>()
  all.forEach((u, i) => {
    addUse(ofGroup, u.group, i)
    addUse(atMessage, u.info.message, i)
    for (const r of u.info.results) {
      const info = ctx.pairing.results[r]
      if (info) addUse(atMessage, info.message, i)
    }
  })
  const made = { ofGroup, atMessage }
  indexes.set(all, made)
  return made
}

/** The plan of the uses older than the `keep` most recent, as the strategy reads it. */
export interface OlderPlan {
  /** Included, visible tool uses (what `toolUses(ctx).length` counts). */
  readonly uses: number
  /** How many of them are older (planned). */
  readonly cut: number
  readonly clearable: number
  readonly editCount: number
  /** The edits in order (built on demand: only a call that clears needs them). */
  edits(): Edit[]
}

interface Carried {
  limit: number
  mark: number
  lastTurn: number
  thread: number
  /** First index into `all` not yet revealed. */
  next: number
  /** Included uses in order, as indexes into `all`. */
  list: number[]
  /** Per use, its plan while still valid. */
  readonly plans: (UsePlan | undefined)[]
  /** Per use, whether its plan is counted in `clearable`/`editCount` (list positions < summed). */
  readonly inSum: Uint8Array
  summed: number
  clearable: number
  editCount: number
  /** Counted uses with edits (their order is their index order). */
  readonly withEdits: Set<number>
  /** Uses whose plan met a `recent_turn` protection. */
  readonly turnBound: Set<number>
  /** Per group, its uses whose plan met a protection that a reveal in the group may lift. */
  readonly groupBound: Map<number, Set<number>>
  /** Counted uses whose plan was dropped since: to plan and count again. */
  redo: number[]
}

const carried = new WeakMap<WorkingView, WeakMap<PlanRules, Carried>>()

/** The thread of the view's current call (its context: see ContextLedger.thread). */
function threadOf(view: WorkingView): number {
  const c = view.currentCall
  return c >= 0 ? (contextPlan(view.prepared).threadOf[c] ?? 0) : 0
}

function fresh(view: WorkingView, size: number): Carried {
  return {
    limit: 0,
    mark: view.changeMark,
    lastTurn: view.lastTurn,
    thread: threadOf(view),
    next: 0,
    list: [],
    plans: new Array<UsePlan | undefined>(size),
    inSum: new Uint8Array(size),
    summed: 0,
    clearable: 0,
    editCount: 0,
    withEdits: new Set(),
    turnBound: new Set(),
    groupBound: new Map(),
    redo: [],
  }
}

/**
 * The older-use plan of this replay call, reusing the previous call's. Equal to planning
 * `toolUses(ctx).slice(0, uses - keep)` from scratch (property-tested). Only for runs that record
 * no non-changes: the per-use skips are not replayed.
 */
export function carriedPlan(ctx: StrategyContext, rules: PlanRules, keep: number): OlderPlan {
  const { view } = ctx
  const all = allToolUses(ctx)
  let byRules = carried.get(view)
  if (!byRules) {
    byRules = new WeakMap()
    carried.set(view, byRules)
  }
  let st = byRules.get(rules)
  if (!st || !update(ctx, st, all, false)) {
    st = fresh(view, all.length)
    byRules.set(rules, st)
    update(ctx, st, all, true)
  }
  const cut = Math.max(0, st.list.length - keep)
  settle(ctx, rules, st, all, cut)
  // Marked before the caller applies its edits: the next call then sees them as changes.
  st.mark = view.changeMark
  const done = st
  return {
    uses: done.list.length,
    cut,
    clearable: done.clearable,
    editCount: done.editCount,
    edits() {
      const out: Edit[] = []
      for (const i of [...done.withEdits].sort((a, b) => a - b))
        for (const e of (done.plans[i] as UsePlan).edits) out.push(e)
      return out
    },
  }
}

/** Forget use `i`'s plan (and take it out of the sums). */
function drop(st: Carried, i: number, group: number): void {
  const plan = st.plans[i]
  if (!plan) return
  if (st.inSum[i]) {
    st.inSum[i] = 0
    st.clearable -= plan.saves
    st.editCount -= plan.edits.length
    st.withEdits.delete(i)
    st.redo.push(i)
  }
  st.plans[i] = undefined
  if (plan.turnBound) st.turnBound.delete(i)
  if (plan.groupBound) st.groupBound.get(group)?.delete(i)
}

/**
 * Drop the plans of `uses` (copied first: dropping may edit the set walked). Module-level: the
 * closure made per `update` call was compiled again and again.
 */
function dropAll(
  st: Carried,
  all: readonly ToolUse[],
  uses: readonly number[] | Iterable<number> | undefined,
): void {
  for (const i of uses ? [...uses] : []) drop(st, i, (all[i] as ToolUse).group)
}

/**
 * Bring `st` up to the view: forget the plans a change or a reveal may have changed, extend the
 * list with the uses revealed since. False when it has to start over.
 */
function update(
  ctx: StrategyContext,
  st: Carried,
  all: readonly ToolUse[],
  fromScratch: boolean,
): boolean {
  const { view } = ctx
  const { groupOfMessage } = view.prepared.grouping
  const index = useIndex(ctx, all)
  // Another thread's call: which groups are out of the context may change for every use.
  if (!fromScratch && threadOf(view) !== st.thread) return false
  let listChanged = false
  const { resetAt } = contextPlan(view.prepared)
  for (let m = st.limit; m < view.limit; m++)
    if (resetAt[m]) {
      // An upstream restart: its group becomes the upstream summary, and the history before it
      // leaves the context. Redo only the plans whose group's context state no longer matches.
      dropAll(st, all, index.ofGroup.get(groupOfMessage[m] as number))
      restarted(ctx, st, all)
    }
  for (const m of view.changesSince(st.mark)) {
    if (m < 0) return false // a rollback: anything may have gone back
    // A replaced part changes only the uses whose call or result it is; an excluded group
    // (its first message stands for it) takes its uses out of the list.
    const g = groupOfMessage[m] as number
    const inGroup = index.ofGroup.get(g)
    if (inGroup && view.isExcluded(g)) {
      listChanged = true
      dropAll(st, all, inGroup)
    }
    dropAll(st, all, index.atMessage.get(m))
  }
  // A revealed message can bring a result into view or end a pending call (the uses it holds),
  // and put its group back in the context (the uses a context protection held).
  for (let m = st.limit; m < view.limit; m++) {
    dropAll(st, all, index.atMessage.get(m))
    dropAll(st, all, st.groupBound.get(groupOfMessage[m] as number))
  }
  if (view.lastTurn !== st.lastTurn) dropAll(st, all, st.turnBound)
  if (listChanged) {
    st.list = []
    for (let i = 0; i < st.next; i++)
      if (!view.isExcluded((all[i] as ToolUse).group)) st.list.push(i)
  }
  const visibleGroups = view.visibleGroupCount
  while (st.next < all.length) {
    const u = all[st.next] as ToolUse
    if (!ctx.visible(u.info.message)) break // sorted by call position: the rest is later
    if (u.group < visibleGroups && !view.isExcluded(u.group)) st.list.push(st.next)
    st.next++
  }
  st.limit = view.limit
  st.lastTurn = view.lastTurn
  if (listChanged || st.summed > st.list.length) {
    // Positions moved: count again from the plans still valid (no re-planning).
    st.inSum.fill(0)
    st.withEdits.clear()
    st.summed = 0
    st.clearable = 0
    st.editCount = 0
    st.redo = []
  }
  return true
}

/**
 * After an upstream restart (same thread): a plan made while its group was in the context has no
 * context protection; one made while it was out has one (`groupBound`). Drop the plans whose
 * group's state differs now (a plan without edits reads no protection: it stays). Each use is
 * redone about once per restart that moves it out of the context, not at every restart.
 */
function restarted(ctx: StrategyContext, st: Carried, all: readonly ToolUse[]): void {
  const out = new Map<number, boolean>()
  for (let i = 0; i < st.next; i++) {
    const plan = st.plans[i]
    if (!plan || (plan.edits.length === 0 && !plan.groupBound)) continue
    const g = (all[i] as ToolUse).group
    let gone = out.get(g)
    if (gone === undefined) {
      gone = ctx.view.outOfContext(g)
      out.set(g, gone)
    }
    if (gone !== plan.groupBound) drop(st, i, g)
  }
}

/** Count list positions [0, cut) (planning the uses without a valid plan), and nothing after. */
function settle(
  ctx: StrategyContext,
  rules: PlanRules,
  st: Carried,
  all: readonly ToolUse[],
  cut: number,
): void {
  const count = (i: number) => {
    let plan = st.plans[i]
    if (!plan) {
      plan = planUse(ctx, rules, all[i] as ToolUse)
      st.plans[i] = plan
      if (plan.turnBound) st.turnBound.add(i)
      if (plan.groupBound) {
        const g = (all[i] as ToolUse).group
        const bound = st.groupBound.get(g)
        if (bound) bound.add(i)
        else st.groupBound.set(g, new Set([i]))
      }
    }
    if (st.inSum[i]) return
    st.inSum[i] = 1
    st.clearable += plan.saves
    st.editCount += plan.edits.length
    if (plan.edits.length > 0) st.withEdits.add(i)
  }
  if (cut < st.summed) {
    for (let k = cut; k < st.summed; k++) {
      const i = st.list[k] as number
      const plan = st.plans[i]
      if (plan && st.inSum[i]) {
        st.inSum[i] = 0
        st.clearable -= plan.saves
        st.editCount -= plan.edits.length
        st.withEdits.delete(i)
      }
    }
    st.summed = cut
  }
  // Uses dropped inside the counted prefix keep their position (the list did not change).
  for (const i of st.redo) {
    const k = positionOf(st.list, i)
    if (k >= 0 && k < st.summed) count(i)
  }
  st.redo = []
  for (let k = st.summed; k < cut; k++) count(st.list[k] as number)
  st.summed = cut
}

/** Position of `i` in the ascending `list`, or -1. */
function positionOf(list: readonly number[], i: number): number {
  const at = firstAtLeast(list, i)
  return list[at] === i ? at : -1
}
