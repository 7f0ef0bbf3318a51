import type { Group } from '../groups.ts'
import type { Message, Part, Role } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import { modelFamily, pricePart, type ModelFamily } from '../tokens/pricing.ts'
import { flatPart, partIndexOf, type PartIndex, type Prepared } from './prepared.ts'
import type { ProtectionKind } from './types.ts'
import {
  ContextLedger,
  IDENTITY_ACCOUNTING,
  type CallAccounting,
  type LedgerState,
  UNDO_NOTHING,
} from './ledger.ts'
import { pushAll } from '../arrays.ts'
import { OverrideTable } from './overrides.ts'
import { refIn, refTableOf, type RefTable } from './refs.ts'
import { COUNTED, EXCLUDED, REPLACED, ReplaceLog, VISIBLE, type UndoStep } from './undo.ts'

/** The last price of a part object, with what it was priced under (parts are immutable). */
const prices = new WeakMap<
  Part,
  {
    readonly role: Role
    readonly family: unknown
    readonly counter: unknown
    readonly framing: unknown
    readonly tokens: number
  }
>()

/** A fresh view's state once every message is revealed (before any change). */
interface OpenedView {
  readonly visibleUpTo: number
  readonly groupTokens: Float64Array
  readonly total: number
  readonly included: number
  readonly visible: readonly Group[]
  readonly maxTurn: number
  readonly ledger: LedgerState
}

const openedViews = new WeakMap<Prepared, OpenedView>()

/**
 * `[strategy]`, one shared array per strategy id: the first override of a part names one strategy,
 * and overrides are never mutated, so thousands of replacements per round need not allocate it.
 */
const singleBy = new Map<string, readonly string[]>()
function byOne(strategy: string): readonly string[] {
  let by = singleBy.get(strategy)
  if (!by) {
    by = [strategy]
    singleBy.set(strategy, by)
  }
  return by
}

/** Shared empty list of newer copies (overrides are never mutated). */
const NO_REFS: readonly PartRef[] = []

/** `[...earlier, newer]` without the spread's iteration (thousands of supersession stubs per round). */
function withNewer(earlier: readonly PartRef[] | undefined, newer: PartRef): readonly PartRef[] {
  if (!earlier || earlier.length === 0) return [newer]
  const out = earlier.slice()
  out.push(newer)
  return out
}

/** A replaced part: what it is now, what it costs, and who changed it (for the projection). */
export interface Override {
  readonly part: Part | null
  readonly tokens: number
  /** Strategies that changed it, in order. */
  readonly by: readonly string[]
  /** Newer copies that stubs of this part defer to. */
  readonly newer: readonly PartRef[]
}

/** A summary inserted by a strategy, placed next to an anchor group. */
export interface InsertedSummary {
  readonly message: Message
  readonly tokens: number
  /** Group index the summary is placed next to. */
  readonly anchor: number
  readonly position: 'before' | 'after'
  /** Group indexes it replaces. */
  readonly covers: readonly number[]
}

/**
 * The mutable state of one compaction run over a prepared conversation: which groups are
 * excluded, which parts are replaced, which summaries are inserted, and the running token total.
 *
 * `limit` hides every message at or after it, so replay can walk the conversation model call by
 * model call with one view whose decisions persist, as an agent loop's would. Groups are the full
 * conversation's groups restricted to visible messages (a group linked by a later message stays
 * linked: conservative, never splits anything).
 *
 * Every change is logged so a failing step can be rolled back (fail-open).
 */
export class WorkingView {
  readonly prepared: Prepared
  private visibleUpTo = 0
  private readonly excluded: Uint8Array
  private readonly index: PartIndex
  /** Keyed by flat part number (string key for a ref that names no part of the conversation). */
  private readonly overrides: OverrideTable<Override>
  /** Overrides per message (the projection copies only the messages that have any). */
  private readonly overridesIn: Int32Array
  private readonly messageTokensNow: Float64Array
  private readonly groupTokensNow: Float64Array
  private readonly inserted: InsertedSummary[] = []
  private readonly insertedIds = new Set<string>()
  private total: number
  /** Visible groups with messages that are not excluded (keeps the projection non-empty). */
  private included = 0
  /**
   * Inverse of every change, last first: a closure for the rarer changes, {@link REPLACED} for a
   * replacement, whose inverse is a row of `replaced`, {@link EXCLUDED} for an exclusion (a row
   * of `excludedLog`). Thousands per re-plan: rows of plain arrays instead of two closures each
   * were a visible share of a round and of its GC.
   */
  private readonly undo: (UndoStep | typeof REPLACED | typeof EXCLUDED)[] = []
  private readonly replaced = new ReplaceLog<Override>()
  /** Per exclusion still undoable: its group, then the tokens it took out of the total. */
  private readonly excludedLog: number[] = []
  /**
   * Message index of every replacement and of the first message of every exclusion, in order; −1
   * for a rollback that undid anything. Incremental strategies keep what they derived from the
   * view with the log length at that time and read only what changed since (replay).
   */
  private readonly changeLog: number[] = []
  /**
   * Parts that applied supersessions point to as "the newer result", with the stubbed parts that
   * point to them. Only stubs still in the context count: once a stub's group is excluded, the
   * copy it pointed to is free to go (same answer in a re-run on the projection: idempotent).
   */
  private readonly newestCopies = new Map<number | string, PartRef[]>()
  /** Visible groups: a prefix of the conversation's groups, extended as replay moves forward. */
  private readonly visible: Group[] = []
  /** Highest user turn among the visible groups. */
  private maxTurn = 0
  /** The current call's context (threads, upstream compactions, provider rules). */
  private readonly ledger: ContextLedger
  /** Hidden prefix and scale that turn our counts into the provider's figure. */
  readonly accounting: CallAccounting
  /** The top-level system group (no messages), or -1. */
  private readonly systemGroup: number

  constructor(
    prepared: Prepared,
    limit = prepared.conversation.messages.length,
    accounting: CallAccounting = IDENTITY_ACCOUNTING,
  ) {
    this.prepared = prepared
    this.accounting = accounting
    this.index = partIndexOf(prepared)
    const first = prepared.grouping.groups[0]
    this.systemGroup = first?.kind === 'system' && first.messages.length === 0 ? 0 : -1
    this.ledger = new ContextLedger(prepared, {
      messageTokens: (m) => this.messageTokensNow[m] as number,
      isGroupExcluded: (g) => this.excluded[g] === 1,
      flatPartTokens: (flat) => {
        const o = this.overrides.size === 0 ? undefined : this.overrides.get(flat)
        if (o) return o.tokens
        const m = this.ledger.plan.messageOfPart[flat] as number
        return this.prepared.partTokens[m]?.[flat - (this.index.offset[m] as number)] ?? 0
      },
    })
    const n = prepared.conversation.messages.length
    this.excluded = new Uint8Array(prepared.grouping.groups.length)
    this.overridesIn = new Int32Array(n)
    this.overrides = new OverrideTable(this.index.offset[n] as number)
    this.messageTokensNow = Float64Array.from(prepared.messageTokens)
    this.groupTokensNow = new Float64Array(prepared.grouping.groups.length)
    this.total = prepared.staticTokens + prepared.systemTokens
    for (const { source, target } of prepared.newestCopies) {
      const key = this.key(target)
      const sources = this.newestCopies.get(key)
      if (sources) sources.push(source)
      else this.newestCopies.set(key, [source])
    }
    // Over the whole conversation, the state after revealing every message depends only on the
    // prepared conversation: copy it from the first view instead of walking 10,000 messages again.
    const whole = Math.min(limit, n) === n
    const opened = whole ? openedViews.get(prepared) : undefined
    if (opened) this.restore(opened)
    else {
      this.advanceTo(Math.min(limit, n))
      if (whole) openedViews.set(prepared, this.opened())
    }
  }

  /** The state after `advanceTo`, before any change (see the constructor). */
  private opened(): OpenedView {
    return {
      visibleUpTo: this.visibleUpTo,
      groupTokens: this.groupTokensNow.slice(),
      total: this.total,
      included: this.included,
      visible: [...this.visible],
      maxTurn: this.maxTurn,
      ledger: this.ledger.snapshot(),
    }
  }

  private restore(o: OpenedView): void {
    this.visibleUpTo = o.visibleUpTo
    this.groupTokensNow.set(o.groupTokens)
    this.total = o.total
    this.included = o.included
    pushAll(this.visible, o.visible)
    this.maxTurn = o.maxTurn
    this.ledger.restore(o.ledger)
  }

  /** Messages with index < limit are visible. */
  get limit(): number {
    return this.visibleUpTo
  }

  /** Reveal messages up to `limit` (replay moves forward only). */
  advanceTo(limit: number): void {
    const { grouping } = this.prepared
    for (let m = this.visibleUpTo; m < limit; m++) {
      const g = grouping.groupOfMessage[m] as number
      if (grouping.groups[g]?.messages[0] === m && !this.excluded[g]) this.included++
      const t = this.messageTokensNow[m] as number
      this.groupTokensNow[g] = (this.groupTokensNow[g] as number) + t
      if (!this.excluded[g]) this.total += t
      this.ledger.reveal(m)
    }
    this.visibleUpTo = Math.max(this.visibleUpTo, limit)
    this.ledger.setLimit(this.visibleUpTo)
    // Groups are ordered by their first message: the visible ones are a prefix (the top-level
    // system group has no messages and comes first). The limit only grows, so extend it.
    const { groups } = grouping
    for (let i = this.visible.length; i < groups.length; i++) {
      const g = groups[i] as Group
      if (g.messages.length > 0 && (g.messages[0] as number) >= this.visibleUpTo) break
      this.visible.push(g)
      if (g.turn > this.maxTurn) this.maxTurn = g.turn
    }
  }

  /** Map key of a part address. */
  private key(ref: PartRef): number | string {
    return this.keyOf(ref.message, ref.part)
  }

  private keyOf(message: number, part: number): number | string {
    const k = flatPart(this.index, message, part)
    return k >= 0 ? k : `${message}:${part}`
  }

  /** Our count of everything visible (all threads, all history): what the invariants recount. */
  get totalTokens(): number {
    return this.total
  }

  /**
   * The figure the provider would count for the current model call (the next call at the limit,
   * or the last call): hidden prefix + scale × (tools, framing and system prompt + the call's own
   * context). Triggers, targets and the fallback read this, so they act on what production sees.
   */
  get contextTokens(): number {
    const system = this.systemNow()
    const ours = this.prepared.staticTokens + system + this.ledger.threadTokens
    return Math.round(
      this.accounting.prefixAt(this.ledger.callIndex) + this.accounting.scale * ours,
    )
  }

  /** The top-level system prompt's tokens, unless the strict fallback dropped it. */
  private systemNow(): number {
    return this.systemGroup >= 0 && this.excluded[this.systemGroup] ? 0 : this.prepared.systemTokens
  }

  /**
   * Where message `m` starts in the current call's prompt, in the provider's tokens (hidden prefix,
   * tools and system first; summaries placed before it count). For the cache model.
   */
  promptOffsetOf(m: number): number {
    const system = this.systemNow()
    let own = this.prepared.staticTokens + system + this.ledger.ownTokensBefore(m)
    const { groups } = this.prepared.grouping
    for (const s of this.inserted) {
      const anchor = groups[s.anchor]?.messages[0] ?? -1
      if (
        anchor >= this.ledger.contextStart &&
        (anchor < m || (anchor === m && s.position === 'before'))
      )
        own += s.tokens
    }
    return this.accounting.prefixAt(this.ledger.callIndex) + this.accounting.scale * own
  }

  /** Message index of the model call the context figures are for (-1 when there is none). */
  get currentCall(): number {
    return this.ledger.callIndex
  }

  /**
   * Is the group outside the current call's context (another agent's thread, or history an
   * upstream compaction already dropped)? Compacting it would change nothing the model sees.
   */
  outOfContext(group: number): boolean {
    return this.ledger.outOfContext(this.messagesOf(group))
  }

  /**
   * Original groups with at least one visible message (or the top-level system group), in order.
   * The same array is returned until the limit moves (it is extended in place then): read it,
   * copy it to keep it.
   */
  visibleGroups(): readonly Group[] {
    return this.visible
  }

  /** Number of visible groups (they are a prefix of the conversation's groups). */
  get visibleGroupCount(): number {
    return this.visible.length
  }

  /** Highest user turn among the visible groups (0 when none). */
  get lastTurn(): number {
    return this.maxTurn
  }

  /** Flat part numbering of the prepared conversation. */
  get parts(): PartIndex {
    return this.index
  }

  isVisible(group: number): boolean {
    const g = this.prepared.grouping.groups[group]
    if (!g) return false
    return g.messages.length === 0 || (g.messages[0] as number) < this.visibleUpTo
  }

  /** Visible message indexes of a group, ascending (the group's own array when all are visible). */
  messagesOf(group: number): readonly number[] {
    const g = this.prepared.grouping.groups[group]
    if (!g) return []
    const msgs = g.messages
    // A group's messages are ascending: all visible when the last one is.
    if (msgs.length === 0 || (msgs[msgs.length - 1] as number) < this.visibleUpTo) return msgs
    return msgs.filter((m) => m < this.visibleUpTo)
  }

  isExcluded(group: number): boolean {
    return this.excluded[group] === 1
  }

  groupTokens(group: number): number {
    if (this.excluded[group]) return 0
    const g = this.prepared.grouping.groups[group]
    if (g?.kind === 'system' && g.messages.length === 0) return this.prepared.systemTokens
    return this.groupTokensNow[group] as number
  }

  /** Tokens of the group as the source had it (visible part), regardless of decisions. */
  originalGroupTokens(group: number): number {
    const g = this.prepared.grouping.groups[group]
    if (g?.kind === 'system' && g.messages.length === 0) return this.prepared.systemTokens
    let t = 0
    for (const m of this.messagesOf(group)) t += this.prepared.messageTokens[m] as number
    return t
  }

  messageTokens(message: number): number {
    return this.messageTokensNow[message] as number
  }

  part(ref: PartRef): Part | null {
    const o = this.overrides.size === 0 ? undefined : this.overrides.get(this.key(ref))
    if (o) return o.part
    return this.prepared.conversation.messages[ref.message]?.parts[ref.part] ?? null
  }

  /** `part({message, part})` without the address object (hot loops). */
  partAt(message: number, part: number): Part | null {
    if (this.overrides.size > 0) {
      const o = this.overrides.get(this.keyOf(message, part))
      if (o) return o.part
    }
    return this.prepared.conversation.messages[message]?.parts[part] ?? null
  }

  /**
   * The shared address object of a part (see compaction/refs.ts): for hot loops whose addresses
   * end up in decisions, instead of a fresh `{message, part}` per part per round.
   */
  refAt(message: number, part: number): PartRef {
    this.refs ??= refTableOf(this.prepared, this.index)
    return refIn(this.refs, this.index, message, part)
  }

  private refs: RefTable | null = null

  /**
   * Was the part with this flat number (see {@link parts}) removed by an override? For a part of
   * the conversation that is exactly `partAt(…) === null`, without the address arithmetic.
   */
  isRemovedFlat(flat: number): boolean {
    if (this.overrides.size === 0) return false
    const o = this.overrides.get(flat)
    return o !== undefined && o.part === null
  }

  partTokens(ref: PartRef): number {
    const o = this.overrides.size === 0 ? undefined : this.overrides.get(this.key(ref))
    if (o) return o.tokens
    return this.prepared.partTokens[ref.message]?.[ref.part] ?? 0
  }

  isModified(ref: PartRef): boolean {
    return this.overrides.size > 0 && this.overrides.has(this.key(ref))
  }

  /** Changed in this run, or by an earlier compaction whose projection this conversation is. */
  isCompacted(ref: PartRef): boolean {
    if (this.isModified(ref)) return true
    const part = this.prepared.conversation.messages[ref.message]?.parts[ref.part]
    return part?.meta?.compactedBy !== undefined
  }

  override(ref: PartRef): Override | undefined {
    return this.overrides.size === 0 ? undefined : this.overrides.get(this.key(ref))
  }

  /** `override({message, part})` without the address object (hot loops). */
  overrideAt(message: number, part: number): Override | undefined {
    return this.overrides.size === 0 ? undefined : this.overrides.get(this.keyOf(message, part))
  }

  /** Does any part of the message have an override (replaced or removed)? */
  hasOverrides(message: number): boolean {
    return this.overrides.size > 0 && (this.overridesIn[message] ?? 0) > 0
  }

  /** Current parts of a message, removed parts dropped. */
  currentParts(message: number): Part[] {
    const m = this.prepared.conversation.messages[message]
    if (!m) return []
    const out: Part[] = []
    for (let i = 0; i < m.parts.length; i++) {
      const p = this.partAt(message, i)
      if (p) out.push(p)
    }
    return out
  }

  summaries(): readonly InsertedSummary[] {
    return this.inserted
  }

  hasSummaryId(id: string): boolean {
    return this.insertedIds.has(id)
  }

  /** Price a candidate part as message `message` would send it. */
  price(part: Part, role: Role, model?: string): number {
    const p = this.prepared
    const family = model ? this.familyOf(model) : p.family
    // Strategies that memoise their replacement parts (one object per original part and params)
    // get the price of the very same object back without tokenizing it again.
    const hit = prices.get(part)
    if (
      hit &&
      hit.role === role &&
      hit.family === family &&
      hit.counter === p.counter &&
      hit.framing === p.framing
    )
      return hit.tokens
    const tokens = pricePart(part, role, p.counter, family, p.framing)
    prices.set(part, { role, family, counter: p.counter, framing: p.framing, tokens })
    return tokens
  }

  /**
   * `modelFamily(model)`, remembered for the last model asked about: a transcript's messages
   * mostly name one model, and each answer lowercases the name and runs regexes (a string per
   * priced part, thousands per re-plan).
   */
  private familyOf(model: string): ModelFamily {
    if (model !== this.lastModel) {
      this.lastModel = model
      this.lastFamily = modelFamily(model)
    }
    return this.lastFamily
  }

  private lastModel = ''
  private lastFamily: ModelFamily = modelFamily('')

  // ---- changes (each logs its inverse) ----

  exclude(group: number): void {
    if (this.excluded[group]) return
    const messages = this.messagesOf(group)
    this.ledger.excluding(messages)
    this.excluded[group] = 1
    this.changeLog.push(this.prepared.grouping.groups[group]?.messages[0] ?? -1)
    const t = this.rawGroupTokens(group)
    this.total -= t
    this.included -= messages.length > 0 ? 1 : 0
    // Its inverse is data too (see `undo`): the group and the tokens it took out.
    this.excludedLog.push(group, t)
    this.undo.push(EXCLUDED)
  }

  /** The inverse of the last {@link exclude} (its row is the last of `excludedLog`). */
  private undoExclude(): void {
    const t = this.excludedLog.pop() as number
    const group = this.excludedLog.pop() as number
    this.excluded[group] = 0
    this.total += t
    const messages = this.messagesOf(group)
    this.included += messages.length > 0 ? 1 : 0
    this.ledger.undoExcluding(messages)
  }

  /** Included visible groups with messages (inserted summaries not counted). */
  get includedGroups(): number {
    return this.included
  }

  private rawGroupTokens(group: number): number {
    const g = this.prepared.grouping.groups[group]
    if (g?.kind === 'system' && g.messages.length === 0) return this.prepared.systemTokens
    return this.groupTokensNow[group] as number
  }

  replace(
    ref: PartRef,
    replacement: Part | null,
    tokens: number,
    strategy = '',
    newer?: PartRef,
  ): void {
    const key = this.key(ref)
    const before = this.overrides.get(key)
    // What partTokens(ref) answers, without a second lookup.
    const oldTokens = before
      ? before.tokens
      : (this.prepared.partTokens[ref.message]?.[ref.part] ?? 0)
    const delta = tokens - oldTokens
    this.overrides.set(key, {
      part: replacement,
      tokens,
      by: before ? [...before.by, strategy] : byOne(strategy),
      newer: newer ? withNewer(before?.newer, newer) : (before?.newer ?? NO_REFS),
    })
    this.changeLog.push(ref.message)
    const counted = !before && ref.message >= 0 && ref.message < this.overridesIn.length
    if (counted) this.overridesIn[ref.message] = (this.overridesIn[ref.message] as number) + 1
    const g = this.prepared.grouping.groupOfMessage[ref.message] as number
    const visible = ref.message < this.visibleUpTo
    const undoLedger = visible
      ? this.ledger.replacing(typeof key === 'number' ? key : -1, ref.message, delta)
      : UNDO_NOTHING
    this.messageTokensNow[ref.message] = (this.messageTokensNow[ref.message] as number) + delta
    if (visible) this.groupTokensNow[g] = (this.groupTokensNow[g] as number) + delta
    if (visible && !this.excluded[g]) this.total += delta
    this.replaced.push(key, before, ref.message, g, delta, counted, visible, undoLedger)
    this.undo.push(REPLACED)
  }

  /** The inverse of the last {@link replace} (its row is the last of `replaced`). */
  private undoReplace(): void {
    const r = this.replaced
    const i = r.length - 1
    const key = r.keys[i] as number | string
    const before = r.befores[i]
    const m = r.messages[i] as number
    const g = r.groups[i] as number
    const delta = r.deltas[i] as number
    const flags = r.flags[i] as number
    const undoLedger = r.ledger[i] as number
    r.pop()
    if (before) this.overrides.set(key, before)
    else this.overrides.delete(key)
    if (flags & COUNTED) this.overridesIn[m] = (this.overridesIn[m] as number) - 1
    this.messageTokensNow[m] = (this.messageTokensNow[m] as number) - delta
    if (flags & VISIBLE) {
      this.groupTokensNow[g] = (this.groupTokensNow[g] as number) - delta
      if (!this.excluded[g]) this.total -= delta
    }
    this.ledger.undoReplacing(undoLedger, m, delta)
  }

  insert(summary: InsertedSummary): void {
    this.inserted.push(summary)
    this.insertedIds.add(summary.message.id)
    this.total += summary.tokens
    const anchor = this.prepared.grouping.groups[summary.anchor]?.messages[0] ?? -1
    const undoLedger = this.ledger.inserting(anchor, summary.tokens)
    this.undo.push(() => {
      undoLedger()
      this.inserted.pop()
      this.insertedIds.delete(summary.message.id)
      this.total -= summary.tokens
    })
  }

  /**
   * Take back a summary inserted earlier in this view (a later summary absorbed it: every system
   * that summarises summarises its earlier summary along with the rest). Returns false when no
   * live summary has that id.
   */
  retract(id: string): boolean {
    const at = this.inserted.findIndex((s) => s.message.id === id)
    const summary = this.inserted[at]
    if (!summary) return false
    this.inserted.splice(at, 1)
    this.insertedIds.delete(id)
    this.total -= summary.tokens
    // The summary leaves the call's context too (the ledger counted it where it was anchored).
    const anchor = this.prepared.grouping.groups[summary.anchor]?.messages[0] ?? -1
    const undoLedger = this.ledger.inserting(anchor, -summary.tokens)
    this.undo.push(() => {
      undoLedger()
      this.inserted.splice(at, 0, summary)
      this.insertedIds.add(id)
      this.total += summary.tokens
    })
    return true
  }

  /** Record that the stub at `source` relies on `ref` being the intact newer copy. */
  markNewestCopy(ref: PartRef, source: PartRef): void {
    const key = this.key(ref)
    // Appended in place: every older occurrence of a resource points to the same newest copy, and
    // copying the list per stub made a round quadratic in them (tens of MB per re-plan). Undo runs
    // last-in first-out, so popping the entry this pushed restores the list exactly.
    const sources = this.newestCopies.get(key)
    if (sources) sources.push(source)
    else this.newestCopies.set(key, [source])
    this.undo.push(() => {
      if (sources) sources.pop()
      else this.newestCopies.delete(key)
    })
  }

  isNewestCopy(ref: PartRef): boolean {
    return this.isNewestCopyAt(ref.message, ref.part)
  }

  /** `isNewestCopy({message, part})` without the address object (asked of every part of a group). */
  private isNewestCopyAt(message: number, part: number): boolean {
    if (this.newestCopies.size === 0) return false
    const sources = this.newestCopies.get(this.keyOf(message, part))
    if (!sources) return false
    const { groupOfMessage } = this.prepared.grouping
    // A loop, not `some`: asked for every part of every group a step drops (no closure each).
    for (const s of sources)
      if (s.message < this.visibleUpTo && !this.excluded[groupOfMessage[s.message] as number])
        return true
    return false
  }

  /** Does a group hold a part that a stub still in the context relies on? */
  holdsNewestCopy(group: number): boolean {
    if (this.newestCopies.size === 0) return false
    for (const m of this.messagesOf(group)) {
      const parts = this.prepared.conversation.messages[m]?.parts.length ?? 0
      for (let i = 0; i < parts; i++) if (this.isNewestCopyAt(m, i)) return true
    }
    return false
  }

  checkpoint(): number {
    return this.undo.length
  }

  rollback(checkpoint: number): void {
    if (this.undo.length > checkpoint) this.changeLog.push(-1)
    while (this.undo.length > checkpoint) {
      const step = this.undo.pop()
      if (step === REPLACED) this.undoReplace()
      else if (step === EXCLUDED) this.undoExclude()
      else step?.()
    }
  }

  /** Length of the change log: a mark to ask {@link changedBefore} about later. */
  get changeMark(): number {
    return this.changeLog.length
  }

  /**
   * Did anything at a message before `message` change (replaced, excluded, or a rollback) since
   * `mark`? Costs the number of changes since the mark.
   */
  changedBefore(mark: number, message: number): boolean {
    for (let i = mark; i < this.changeLog.length; i++) {
      const m = this.changeLog[i] as number
      if (m < message) return true
    }
    return false
  }

  /**
   * Messages changed since `mark`, in order (-1: a rollback): a strategy that keeps records over
   * this view can redo only those (replay). The first message of an excluded group stands for it.
   */
  changesSince(mark: number): readonly number[] {
    return this.changeLog.slice(mark)
  }

  /** Protections are computed by the pipeline per run; kept here so strategies can ask. */
  protection: (group: number, ref?: PartRef) => ProtectionKind | null = () => null
}
