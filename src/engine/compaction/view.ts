import type { PartRef } from '../pairing.ts'
import type { Part, Role } from '../model.ts'
import { modelFamily, type ModelFamily } from '../tokens/pricing.ts'
import type { ProtectionKind } from './types.ts'
import { UNDO_NOTHING } from './ledger.ts'
import {
  COUNTED,
  EXCLUDED,
  INSERTED,
  NEWEST,
  REPLACED,
  ReplaceLog,
  VISIBLE,
  type UndoStep,
} from './undo.ts'
import { ViewState } from './view-state.ts'
import { rootLineage, type ViewTape } from './view-tape.ts'
import {
  byOne,
  memoPrice,
  NO_REFS,
  withNewer,
  type InsertedSummary,
  type Override,
} from './view-parts.ts'

export type { InsertedSummary, Override } from './view-parts.ts'

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
export class WorkingView extends ViewState {
  /**
   * Inverse of every change, last first: a closure for the rarer changes, {@link REPLACED} for a
   * replacement, whose inverse is a row of `replaced`, {@link EXCLUDED} for an exclusion (a row
   * of `excludedLog`), {@link INSERTED} for an inserted summary (the last of `inserted`).
   * Thousands per re-plan: rows of plain arrays instead of two closures each
   * were a visible share of a round and of its GC.
   */
  private readonly undo: (
    UndoStep | typeof REPLACED | typeof EXCLUDED | typeof INSERTED | typeof NEWEST
  )[] = []
  private readonly replaced = new ReplaceLog<Override>()
  /** Per exclusion still undoable: its group, then the tokens it took out of the total. */
  private readonly excludedLog: number[] = []
  /** Per newest-copy mark still undoable: its key, its message, 1 when it made the key's list. */
  private readonly newestLog: (number | string)[] = []
  /**
   * Message index of every replacement and of the first message of every exclusion, in order; −1
   * for a rollback that undid anything. Incremental strategies keep what they derived from the
   * view with the log length at that time and read only what changed since (replay).
   */
  private readonly changeLog: number[] = []

  /**
   * Changes made so far (any kind, rollbacks included): what a lineage token is valid for. The
   * change log does not count inserted summaries, so it cannot serve.
   */
  private version = 0
  private lineageToken: object | null = null
  private lineageVersion = -1
  private lineageLimit = -1
  /** Where changes are taped while a step records them (step-records.ts), else null. */
  private tape: ViewTape | null = null

  /**
   * A token naming this view's exact state, or null when none does (see step-records.ts): a view
   * nothing changed has its root (per prepared conversation, accounting and limit); a step that
   * recorded or played back its changes sets the token its record names; any other change makes
   * the token stale, so nothing after it is played back.
   */
  lineage(): object | null {
    if (this.version === 0) return rootLineage(this.prepared, this.accounting, this.visibleUpTo)
    return this.lineageVersion === this.version && this.lineageLimit === this.visibleUpTo
      ? this.lineageToken
      : null
  }

  /** Name the view's current state (valid until the next change or a move of the limit). */
  setLineage(token: object): void {
    this.lineageToken = token
    this.lineageVersion = this.version
    this.lineageLimit = this.visibleUpTo
  }

  /** Tape every change from now on into `tape` (null: stop). */
  recordInto(tape: ViewTape | null): void {
    this.tape = tape
  }

  /** Make the changes of `tape` again, in order (the view must be in the state it was taped in). */
  play(tape: ViewTape): void {
    tape.playOn(this)
  }

  /** Price a candidate part as message `message` would send it. */
  price(part: Part, role: Role, model?: string): number {
    return memoPrice(this.prepared, part, role, model ? this.familyOf(model) : this.prepared.family)
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
    this.version++
    this.tape?.excluded(group)
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

  replace(
    ref: PartRef,
    replacement: Part | null,
    tokens: number,
    strategy = '',
    newer?: PartRef,
  ): void {
    this.version++
    this.tape?.replaced(ref, replacement, tokens, strategy, newer)
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
    const key = r.lastKey()
    const before = r.lastBefore()
    const m = r.lastMessage()
    const g = r.lastGroup()
    const delta = r.lastDelta()
    const flags = r.lastFlags()
    const undoLedger = r.lastLedger()
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
    this.version++
    this.tape?.inserted(summary)
    this.inserted.push(summary)
    this.insertedIds.add(summary.message.id)
    this.total += summary.tokens
    this.ledger.inserting(this.anchorMessage(summary), summary.tokens)
    // Its inverse is data too (see `undo`): the summary is the last of `inserted` then.
    this.undo.push(INSERTED)
  }

  /** The inverse of the last {@link insert}: undo runs last in, first out, so it is the last one. */
  private undoInsert(): void {
    const summary = this.inserted.pop() as InsertedSummary
    this.ledger.inserting(this.anchorMessage(summary), -summary.tokens)
    this.insertedIds.delete(summary.message.id)
    this.total -= summary.tokens
  }

  /** The conversation message a summary is placed next to (-1: none). */
  private anchorMessage(summary: InsertedSummary): number {
    return this.prepared.grouping.groups[summary.anchor]?.messages[0] ?? -1
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
    this.version++
    this.tape?.retracted(id)
    this.inserted.splice(at, 1)
    this.insertedIds.delete(id)
    this.total -= summary.tokens
    // The summary leaves the call's context too (the ledger counted it where it was anchored).
    const anchor = this.anchorMessage(summary)
    this.ledger.inserting(anchor, -summary.tokens)
    this.undo.push(() => {
      this.ledger.inserting(anchor, summary.tokens)
      this.inserted.splice(at, 0, summary)
      this.insertedIds.add(id)
      this.total += summary.tokens
    })
    return true
  }

  /** Record that the stub at `source` relies on `ref` being the intact newer copy. */
  markNewestCopy(ref: PartRef, source: PartRef): void {
    this.version++
    this.tape?.marked(ref, source)
    const key = this.key(ref)
    // Appended in place: every older occurrence of a resource points to the same newest copy, and
    // copying the list per stub made a round quadratic in them (tens of MB per re-plan). Undo runs
    // last-in first-out, so popping the entry this pushed restores the list exactly.
    const sources = this.newestCopies.get(key)
    if (sources) sources.push(source)
    else this.newestCopies.set(key, [source])
    this.countNewest(key, ref.message, 1)
    // Its inverse is data too (see `undo`): a closure per supersession stub (1,500 per re-plan)
    // was most of what a mark allocated. The row: the key, its message, and whether the list was new.
    this.newestLog.push(key, ref.message, sources ? 0 : 1)
    this.undo.push(NEWEST)
  }

  /** The inverse of the last {@link markNewestCopy} (its row is the last of `newestLog`). */
  private undoNewest(): void {
    const created = this.newestLog.pop() as number
    const message = this.newestLog.pop() as number
    const key = this.newestLog.pop() as number | string
    if (created) this.newestCopies.delete(key)
    else this.newestCopies.get(key)?.pop()
    this.countNewest(key, message, -1)
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
    if (this.newestCopies.size === 0 || this.newestIn[group] === 0) return false
    for (const m of this.messagesOf(group)) {
      const parts = this.prepared.conversation.messages[m]?.parts.length ?? 0
      for (let i = 0; i < parts; i++) if (this.isNewestCopyAt(m, i)) return true
    }
    return false
  }

  checkpoint(): number {
    return this.undo.length
  }

  /**
   * Forget how to take back the changes made so far. Only while no checkpoint is held: the
   * pipeline calls it between steps (a step rolls back to its own checkpoint, never further). The
   * log held every change of the run until the run ended, so each scavenge during a re-plan
   * copied thousands of rows (and the overrides they kept alive) that nothing would ever read.
   */
  settle(): void {
    this.undo.length = 0
    this.replaced.clear()
    this.excludedLog.length = 0
    this.newestLog.length = 0
  }

  rollback(checkpoint: number): void {
    if (this.undo.length > checkpoint) {
      this.changeLog.push(-1)
      this.version++
      if (this.tape) this.tape.broken = true
    }
    while (this.undo.length > checkpoint) {
      const step = this.undo.pop()
      if (step === REPLACED) this.undoReplace()
      else if (step === EXCLUDED) this.undoExclude()
      else if (step === INSERTED) this.undoInsert()
      else if (step === NEWEST) this.undoNewest()
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
