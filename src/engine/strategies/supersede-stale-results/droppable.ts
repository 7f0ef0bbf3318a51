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
  for (const g of candidates) {
    const first = droppableFirst(ctx, results, outcomes, g)
    if (first >= 0) out.set(g, first)
  }
  return out
}

/** The droppable groups as a lookup, or each group asked for found when first asked. */
export interface DropLookup {
  has(group: number): boolean
  get(group: number): number | undefined
}

/**
 * {@link droppableGroups} found group by group when asked: a replay call asks only about the
 * groups of the drops it acts on, and late in a replay most drops are of groups it cannot drop
 * (they hold a newer copy an earlier stub points to), whose answer it then never needs. Asked
 * only for groups of drop outcomes, it answers as the whole map would: a group's answer reads
 * what no change of this step alters (outcomes, the limit, the group's text parts). A class, not
 * closures: one is made per replay call.
 */
export class LazyDrops implements DropLookup {
  /** Group → the result index recording its exclusion, -1 when it may not be dropped. */
  private readonly found = new Map<number, number>()
  private readonly ctx: StrategyContext
  private readonly results: readonly ResultInfo[]
  private readonly outcomes: readonly Outcome[]
  constructor(ctx: StrategyContext, results: readonly ResultInfo[], outcomes: readonly Outcome[]) {
    this.ctx = ctx
    this.results = results
    this.outcomes = outcomes
  }

  has(group: number): boolean {
    return this.first(group) >= 0
  }

  get(group: number): number | undefined {
    const at = this.first(group)
    return at >= 0 ? at : undefined
  }

  private first(group: number): number {
    let at = this.found.get(group)
    if (at === undefined) {
      at = droppableFirst(this.ctx, this.results, this.outcomes, group)
      this.found.set(group, at)
    }
    return at
  }
}

/**
 * The result index that records group `g`'s exclusion when it may be dropped whole (every
 * visible result in it a drop, every call answered, no text of its own), else -1. Plain loops,
 * stopping at the first answer: this runs for every group holding a drop (hundreds per re-plan),
 * and the arrays and closures of `map`/`filter`/`every` per group showed.
 */
function droppableFirst(
  ctx: StrategyContext,
  results: readonly ResultInfo[],
  outcomes: readonly Outcome[],
  g: number,
): number {
  const { view, pairing } = ctx
  const group = view.prepared.grouping.groups[g]
  if (!group) return -1
  // Every visible result is a drop; the first one records the exclusion.
  let first = -1
  for (const x of group.results) {
    const r = pairing.results[x]
    if (!r || !ctx.visible(r.message)) continue
    const at = indexOf(results, r.message, r.part)
    if (first < 0) first = at
    if (outcomes[at]?.kind !== 'drop') return -1
  }
  if (first < 0 || !answered(ctx, group.calls) || !textFree(view, g)) return -1
  return first
}

/** Results are in (message, part) order: a binary search finds one without a map over them all. */
function indexOf(results: readonly ResultInfo[], message: number, part: number): number {
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
