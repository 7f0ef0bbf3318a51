import type { StrategyContext } from '../compaction/context.ts'

/**
 * The preserved recent tail shared by the falai tiers and `summarize`: the newest N messages (or
 * groups) that no strategy may touch, always as WHOLE groups so a tool call is never separated
 * from its results (hard case 18).
 *
 * Sources count differently: @falai/agent counts history items (messages), MAF counts messages but
 * keeps whole groups, others count groups. A message count can fall inside a tool group (the call
 * before the cut, its results after it); `straddling` lists those groups so a faithful mode can say
 * what the source would have split, while the fixed tail simply contains the whole group.
 */
export interface PreservedTail {
  readonly unit: 'messages' | 'groups'
  readonly count: number
  /** Groups kept whole in the tail (group indexes). */
  readonly groups: ReadonlySet<number>
  /**
   * Index of the earliest message inside the count: the source's own cut. Messages at or after it
   * are in the source's tail. `Infinity` when nothing is preserved.
   */
  readonly cut: number
  /** Groups the message cut falls inside (some messages before `cut`, some at or after it). */
  readonly straddling: readonly number[]
  /** "the last 4 messages", for decision sentences. */
  readonly label: string
}

/** Visible messages of groups that are still in the projection, ascending. Linear. */
export function liveMessages(ctx: StrategyContext): number[] {
  const { groupOfMessage } = ctx.view.prepared.grouping
  const out: number[] = []
  for (let m = 0; m < ctx.view.limit; m++) {
    if (!ctx.view.isExcluded(groupOfMessage[m] as number)) out.push(m)
  }
  return out
}

/** Group index of a message. */
export function groupOf(ctx: StrategyContext, message: number): number {
  return ctx.view.prepared.grouping.groupOfMessage[message] as number
}

/**
 * The last `count` live messages, extended to whole groups. A group some of whose messages are
 * inside the count is in the tail entirely; if it also has messages before the cut it is listed in
 * `straddling` (falai's message-count cut would have split it).
 */
export function tailByMessages(ctx: StrategyContext, count: number): PreservedTail {
  const live = liveMessages(ctx)
  const label = `the last ${count} message${count === 1 ? '' : 's'}`
  if (count <= 0 || live.length === 0) {
    return { unit: 'messages', count, groups: new Set(), cut: Infinity, straddling: [], label }
  }
  const cut = live[Math.max(0, live.length - count)] as number
  const groups = new Set<number>()
  for (const m of live) if (m >= cut) groups.add(groupOf(ctx, m))
  const straddling: number[] = []
  for (const g of groups) {
    const msgs = ctx.view.messagesOf(g)
    if (msgs.length > 0 && (msgs[0] as number) < cut) straddling.push(g)
  }
  straddling.sort((a, b) => a - b)
  return { unit: 'messages', count, groups, cut, straddling, label }
}

/**
 * The last `count` live non-system groups (system groups are never counted: they are protected
 * on their own). The cut is the first message of the earliest tail group; nothing straddles.
 */
export function tailByGroups(ctx: StrategyContext, count: number): PreservedTail {
  const label = `the last ${count} group${count === 1 ? '' : 's'}`
  const live = ctx.groups().filter((g) => !ctx.view.isExcluded(g.index) && g.kind !== 'system')
  const kept = count > 0 ? live.slice(Math.max(0, live.length - count)) : []
  const groups = new Set(kept.map((g) => g.index))
  let cut = Infinity
  for (const g of kept) {
    const first = ctx.view.messagesOf(g.index)[0]
    if (first !== undefined && first < cut) cut = first
  }
  return { unit: 'groups', count, groups, cut, straddling: [], label }
}

/**
 * Is this message preserved? Fixed: its whole group is in the tail. Faithful (message counting as
 * the source does): the message itself is at or after the cut, even if its group straddles it.
 */
export function inTail(
  ctx: StrategyContext,
  tail: PreservedTail,
  message: number,
  faithful: boolean,
): boolean {
  if (faithful && tail.unit === 'messages') return message >= tail.cut
  return tail.groups.has(groupOf(ctx, message))
}
