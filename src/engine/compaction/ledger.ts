import { contextPlan, type ContextPlan } from '../accounting/plan.ts'
import { groupFactsOf, type GroupFacts } from './group-facts.ts'
import type { Prepared } from './prepared.ts'
import { partIndexOf, type PartIndex } from './prepared.ts'

/**
 * How our counts become the provider's figure for a call: the hidden prefix the log does not show
 * (per call: it may step inside a session) plus a scale on our counts. Identity when nothing is
 * known: prefix 0, scale 1.
 */
export interface CallAccounting {
  readonly scale: number
  /** Hidden prefix of the call that produced message `callIndex` (any index: the last known). */
  prefixAt(callIndex: number): number
}

export const IDENTITY_ACCOUNTING: CallAccounting = { scale: 1, prefixAt: () => 0 }

/** {@link ContextLedger.replacing}: nothing to take back (the message is not in the context). */
export const UNDO_NOTHING = -1
/** {@link ContextLedger.replacing}: the part is stripped; only its stripped tokens moved. */
export const UNDO_STRIPPED = -2

/** A copy of a ledger's running figures (see {@link ContextLedger.snapshot}). */
export interface LedgerState {
  readonly sums: Float64Array
  readonly start: Int32Array
  readonly stripped: Uint8Array
  readonly strippedTokens: Float64Array
  readonly limit: number
  readonly nextCall: number
}

/**
 * What the ledger needs to read from the view it belongs to: the view itself (methods of its
 * class). An object of closures made per view handed TurboFan a new call target with every
 * re-plan's view, and the ledger's hot paths, optimised for the last view's closures, were thrown
 * away and compiled again in each of the first re-plans after a load ("wrong call target").
 */
export interface LedgerHost {
  messageTokens(message: number): number
  isExcluded(group: number): boolean
  /** Current tokens of a part by flat number. */
  flatPartTokens(flat: number): number
}

/**
 * The context of the current model call inside a working view, kept up to date as replay moves
 * forward and strategies change things: per-thread sums of what is in the context (messages since
 * the thread's last upstream compaction, minus reasoning the provider does not count), so the
 * figure every trigger, target and chart reads costs O(1).
 *
 * Invariant: sums[t] = Σ over visible, non-excluded messages m of thread t with m ≥ start[t] of
 * (current tokens of m − current tokens of its stripped parts) + summaries inserted into t.
 */
export class ContextLedger {
  readonly plan: ContextPlan
  private readonly index: PartIndex
  private readonly groupOfMessage: readonly number[]
  private readonly groups: GroupFacts
  private readonly sums: Float64Array
  /** Summary tokens inside sums[t]: what is left is messages only, so a prefix can come from the end. */
  private readonly insertedSums: Float64Array
  private readonly start: Int32Array
  private readonly stripped: Uint8Array
  private readonly strippedTokens: Float64Array
  private readonly droppedAt: Map<number, number[]>
  private limit = 0
  /** Index into plan.calls of the first call at or after the limit. */
  private nextCall = 0

  private readonly host: LedgerHost

  constructor(prepared: Prepared, host: LedgerHost) {
    this.host = host
    this.plan = contextPlan(prepared)
    this.index = partIndexOf(prepared)
    this.groupOfMessage = prepared.grouping.groupOfMessage
    this.groups = groupFactsOf(prepared)
    const n = prepared.conversation.messages.length
    this.sums = new Float64Array(this.plan.threads.length)
    this.insertedSums = new Float64Array(this.plan.threads.length)
    this.start = new Int32Array(this.plan.threads.length)
    this.stripped = new Uint8Array(this.index.offset[n] as number)
    this.strippedTokens = new Float64Array(n)
    this.droppedAt = new Map()
    for (const flat of this.plan.dropped) {
      const m = this.plan.messageOfPart[flat] as number
      this.droppedAt.set(m, [...(this.droppedAt.get(m) ?? []), flat])
    }
  }

  /**
   * The model call the view is measured for: the next call at or after the limit. Over a whole
   * conversation that is the call that would come next (everything so far is its context; it is
   * a call of the last call's thread, with the last call's prefix).
   */
  get callIndex(): number {
    const { calls } = this.plan
    if (calls.length === 0) return -1
    return (calls[Math.min(this.nextCall, calls.length - 1)] as number) ?? -1
  }

  get thread(): number {
    const c = this.callIndex
    return c >= 0 ? (this.plan.threadOf[c] as number) : 0
  }

  /** Our count of the current call's context from the log (no prefix, no scale). */
  get threadTokens(): number {
    return this.sums[this.thread] as number
  }

  private counted(m: number): boolean {
    const t = this.plan.threadOf[m] as number
    return (
      m < this.limit &&
      m >= (this.start[t] as number) &&
      !this.host.isExcluded(this.groupOfMessage[m] as number)
    )
  }

  private contribution(m: number): number {
    return this.host.messageTokens(m) - (this.strippedTokens[m] as number)
  }

  private add(t: number, delta: number): void {
    this.sums[t] = (this.sums[t] as number) + delta
  }

  /** Its running figures, to start another ledger of the same conversation in the same state. */
  snapshot(): LedgerState {
    return {
      sums: this.sums.slice(),
      start: this.start.slice(),
      stripped: this.stripped.slice(),
      strippedTokens: this.strippedTokens.slice(),
      limit: this.limit,
      nextCall: this.nextCall,
    }
  }

  /** Take the figures of a snapshot of a ledger over the same prepared conversation. */
  restore(state: LedgerState): void {
    this.sums.set(state.sums)
    this.start.set(state.start)
    this.stripped.set(state.stripped)
    this.strippedTokens.set(state.strippedTokens)
    this.limit = state.limit
    this.nextCall = state.nextCall
  }

  /** Message `m` becomes visible (call in order). */
  reveal(m: number): void {
    const t = this.plan.threadOf[m] as number
    if (this.plan.resetAt[m]) {
      this.sums[t] = 0
      this.insertedSums[t] = 0
      this.start[t] = m
    }
    const strip = this.plan.stripAt.get(m)
    if (strip) for (const flat of strip) this.stripPart(flat)
    for (const flat of this.droppedAt.get(m) ?? []) this.stripPart(flat, m)
    this.limit = m + 1
    while (
      this.nextCall < this.plan.calls.length &&
      (this.plan.calls[this.nextCall] as number) < this.limit
    )
      this.nextCall++
    if (!this.host.isExcluded(this.groupOfMessage[m] as number)) this.add(t, this.contribution(m))
  }

  /** Advance the "current call" pointer when the limit moves without new messages. */
  setLimit(limit: number): void {
    this.limit = Math.max(this.limit, limit)
    while (
      this.nextCall < this.plan.calls.length &&
      (this.plan.calls[this.nextCall] as number) < this.limit
    )
      this.nextCall++
  }

  private stripPart(flat: number, revealing?: number): void {
    if (this.stripped[flat]) return
    this.stripped[flat] = 1
    const m = this.plan.messageOfPart[flat] as number
    const tokens = this.host.flatPartTokens(flat)
    this.strippedTokens[m] = (this.strippedTokens[m] as number) + tokens
    // A message being revealed is added afterwards with its stripped parts already left out.
    if (revealing !== m && this.counted(m)) this.add(this.plan.threadOf[m] as number, -tokens)
  }

  /** Before a group is excluded: what leaves the context ({@link undoExcluding} adds it back). */
  excluding(messages: readonly number[]): void {
    for (const m of messages) {
      if (!this.counted(m)) continue
      this.add(this.plan.threadOf[m] as number, -this.contribution(m))
    }
  }

  /**
   * Take back {@link excluding} of the same messages, once the view has marked their group
   * included again. Undo runs last in, first out, so every figure a contribution reads (limit,
   * thread starts, message and stripped tokens) is what it was when the group left: recomputing
   * it adds back exactly what left, with no list kept per exclusion.
   */
  undoExcluding(messages: readonly number[]): void {
    for (const m of messages) {
      if (!this.counted(m)) continue
      this.add(this.plan.threadOf[m] as number, this.contribution(m))
    }
  }

  /**
   * A part of message `m` changes by `delta` tokens (call before the view updates its figures).
   * Returns how to take it back, as data rather than a closure (a re-plan makes thousands of
   * replacements): {@link UNDO_NOTHING}, {@link UNDO_STRIPPED}, or the thread whose sum moved.
   * Pass it to {@link undoReplacing} with the same `m` and `delta`.
   */
  replacing(flat: number, m: number, delta: number): number {
    if (flat >= 0 && this.stripped[flat]) {
      this.strippedTokens[m] = (this.strippedTokens[m] as number) + delta
      return UNDO_STRIPPED
    }
    if (!this.counted(m)) return UNDO_NOTHING
    const t = this.plan.threadOf[m] as number
    this.add(t, delta)
    return t
  }

  /** Take back a {@link replacing} (last in, first out with every other change). */
  undoReplacing(undo: number, m: number, delta: number): void {
    if (undo === UNDO_STRIPPED) this.strippedTokens[m] = (this.strippedTokens[m] as number) - delta
    else if (undo >= 0) this.add(undo, -delta)
  }

  /**
   * A summary placed next to a message of the conversation joins that message's thread (negative
   * `tokens`: it leaves). The same call with `-tokens` takes it back: the anchor's thread is fixed,
   * so the view keeps no closure per summary to undo it (thousands of collapses per re-plan).
   */
  inserting(anchorMessage: number, tokens: number): void {
    const t = anchorMessage >= 0 ? (this.plan.threadOf[anchorMessage] as number) : 0
    this.add(t, tokens)
    this.insertedSums[t] = (this.insertedSums[t] as number) + tokens
  }

  /**
   * Our count of the current call's context up to (not including) message `m`: where `m` starts
   * in the prompt. O(messages of the thread before m): asked only where something changed.
   */
  ownTokensBefore(m: number): number {
    const t = this.thread
    const from = this.start[t] as number
    const end = Math.min(m, this.limit)
    // Replay asks near the end of the context every call (where reasoning was stripped, where a
    // step changed something): then the running sum minus the few messages after m is cheaper.
    // Token counts are whole numbers, so both ways give the same figure exactly.
    if (end > from && this.limit - end < end - from) {
      let tail = 0
      for (let i = end; i < this.limit; i++)
        if (this.plan.threadOf[i] === t && this.counted(i)) tail += this.contribution(i)
      return (this.sums[t] as number) - (this.insertedSums[t] as number) - tail
    }
    let sum = 0
    for (let i = from; i < end; i++)
      if (this.plan.threadOf[i] === t && this.counted(i)) sum += this.contribution(i)
    return sum
  }

  /** First message of the current call's context (its thread's last upstream restart). */
  get contextStart(): number {
    return this.start[this.thread] as number
  }

  /**
   * {@link outOfContext} for a visible group whose messages are all of one thread (nearly every
   * group), from the flat per-group facts (group-facts.ts: this is asked about old groups all over
   * a long history); null for any other group. Outside unless its thread is the current call's
   * and its last message reaches that thread's last restart.
   */
  groupOutOfContext(group: number): boolean | null {
    const last = this.groups.last[group] ?? -1
    const thread = this.groups.thread[group] ?? -1
    if (last < 0 || thread < 0 || last >= this.limit) return null
    return thread !== this.thread || last < (this.start[thread] as number)
  }

  /** Is every message of the group outside the current call's context? */
  outOfContext(messages: readonly number[]): boolean {
    if (messages.length === 0) return false
    const current = this.thread
    for (const m of messages) {
      const t = this.plan.threadOf[m] as number
      if (t === current && m >= (this.start[t] as number)) return false
    }
    return true
  }
}
