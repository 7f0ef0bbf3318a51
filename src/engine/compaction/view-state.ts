import type { Group } from '../groups.ts'
import type { Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import { flatPart, partIndexOf, type PartIndex, type Prepared } from './prepared.ts'
import {
  ContextLedger,
  IDENTITY_ACCOUNTING,
  type CallAccounting,
  type LedgerHost,
  type LedgerState,
} from './ledger.ts'
import { OverrideTable } from './overrides.ts'
import { refIn, refTableOf, type RefTable } from './refs.ts'
import type { InsertedSummary, Override } from './view-parts.ts'

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
 * What a working view reads: the prepared conversation revealed up to a limit, with the running
 * figures (group, message and context tokens), the replaced parts and inserted summaries, and the
 * newer copies stubs rely on. {@link WorkingView} adds the changes and their undo log; this half
 * holds the state they change and every question strategies, the projection and the invariants
 * ask of it.
 */
export abstract class ViewState implements LedgerHost {
  readonly prepared: Prepared
  protected visibleUpTo = 0
  protected readonly excluded: Uint8Array
  private readonly index: PartIndex
  /** Keyed by flat part number (string key for a ref that names no part of the conversation). */
  protected readonly overrides: OverrideTable<Override>
  /** Overrides per message (the projection copies only the messages that have any). */
  protected readonly overridesIn: Int32Array
  protected readonly messageTokensNow: Float64Array
  protected readonly groupTokensNow: Float64Array
  protected readonly inserted: InsertedSummary[] = []
  protected readonly insertedIds = new Set<string>()
  protected total: number
  /** Visible groups with messages that are not excluded (keeps the projection non-empty). */
  protected included = 0
  /**
   * Parts that applied supersessions point to as "the newer result", with the stubbed parts that
   * point to them. Only stubs still in the context count: once a stub's group is excluded, the
   * copy it pointed to is free to go (same answer in a re-run on the projection: idempotent).
   */
  protected readonly newestCopies = new Map<number | string, PartRef[]>()
  /** Per group, sources in {@link newestCopies} pointing into it: most hold none (no part walk). */
  protected readonly newestIn: Int32Array
  /** Visible groups: a prefix of the groups, extended as replay moves forward (or shared). */
  private visible: Group[] = []
  /** `visible` is the opened view's list (see `restore`): copied before it is extended. */
  private visibleShared = false
  /** Highest user turn among the visible groups. */
  private maxTurn = 0
  /** The current call's context (threads, upstream compactions, provider rules). */
  protected readonly ledger: ContextLedger
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
    // The view is the ledger's host (it reads nothing before the fields below are set).
    this.ledger = new ContextLedger(prepared, this)
    const n = prepared.conversation.messages.length
    this.excluded = new Uint8Array(prepared.grouping.groups.length)
    this.overridesIn = new Int32Array(n)
    this.overrides = new OverrideTable(this.index.offset[n] as number)
    this.messageTokensNow = Float64Array.from(prepared.messageTokens)
    this.groupTokensNow = new Float64Array(prepared.grouping.groups.length)
    this.total = prepared.staticTokens + prepared.systemTokens
    this.newestIn = new Int32Array(prepared.grouping.groups.length)
    for (const { source, target } of prepared.newestCopies) {
      const key = this.key(target)
      const sources = this.newestCopies.get(key)
      if (sources) sources.push(source)
      else this.newestCopies.set(key, [source])
      this.countNewest(key, target.message, 1)
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
      visible: this.visible.slice(),
      maxTurn: this.maxTurn,
      ledger: this.ledger.snapshot(),
    }
  }

  private restore(o: OpenedView): void {
    this.visibleUpTo = o.visibleUpTo
    this.groupTokensNow.set(o.groupTokens)
    this.total = o.total
    this.included = o.included
    this.visible = o.visible as Group[]
    this.visibleShared = true
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
    if (this.visibleShared && this.visible.length < groups.length) {
      this.visible = this.visible.slice()
      this.visibleShared = false
    }
    for (let i = this.visible.length; i < groups.length; i++) {
      const g = groups[i] as Group
      if (g.messages.length > 0 && (g.messages[0] as number) >= this.visibleUpTo) break
      this.visible.push(g)
      if (g.turn > this.maxTurn) this.maxTurn = g.turn
    }
  }

  /** Count a source pointing to part `key` of `message` (a string key is in no group). */
  protected countNewest(key: number | string, message: number, by: 1 | -1): void {
    if (typeof key !== 'number') return
    const g = this.prepared.grouping.groupOfMessage[message]
    if (g !== undefined) this.newestIn[g] = (this.newestIn[g] as number) + by
  }

  /** Map key of a part address. */
  protected key(ref: PartRef): number | string {
    return this.keyOf(ref.message, ref.part)
  }

  protected keyOf(message: number, part: number): number | string {
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
    return this.ledger.groupOutOfContext(group) ?? this.ledger.outOfContext(this.messagesOf(group))
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

  messageTokens(message: number): number {
    return this.messageTokensNow[message] as number
  }

  /** Current tokens of a part by flat number (see {@link parts}; the ledger asks). */
  flatPartTokens(flat: number): number {
    const o = this.overrides.size === 0 ? undefined : this.overrides.get(flat)
    if (o) return o.tokens
    const m = this.ledger.plan.messageOfPart[flat] as number
    return this.prepared.partTokens[m]?.[flat - (this.index.offset[m] as number)] ?? 0
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

  /** Included visible groups with messages (inserted summaries not counted). */
  get includedGroups(): number {
    return this.included
  }

  protected rawGroupTokens(group: number): number {
    const g = this.prepared.grouping.groups[group]
    if (g?.kind === 'system' && g.messages.length === 0) return this.prepared.systemTokens
    return this.groupTokensNow[group] as number
  }
}
