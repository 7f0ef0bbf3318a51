/**
 * The working view's undo log for replacements, as rows of plain arrays. A re-plan over 10,000
 * messages makes thousands of replacements; one closure each (plus one from the ledger) was a
 * large share of what a round allocated and of what the garbage collector then copied. Rows are
 * pushed and popped last in, first out, in step with the view's undo stack, where a replacement
 * stands as the marker {@link REPLACED}.
 */

/** The inverse of a rarer change (exclusion, summary, newest-copy mark). */
export type UndoStep = () => void

/** Marker in the undo stack: "take back the last row of the replace log". */
export const REPLACED = 0
/** Marker in the undo stack: "take back the last exclusion" (the view keeps its rows). */
export const EXCLUDED = 1
/** Marker in the undo stack: "take back the last inserted summary" (the last of the view's list). */
export const INSERTED = 2
/** Marker in the undo stack: "take back the last newest-copy mark" (the view keeps its rows). */
export const NEWEST = 3

/** Row flag: the replacement added the part's first override in its message. */
export const COUNTED = 1
/** Row flag: the message was visible, so group, total and ledger figures moved too. */
export const VISIBLE = 2

/**
 * Rows as columns that keep their capacity: typed columns for the numbers, grown by doubling and
 * never shrunk. Plain arrays pushed one row at a time and emptied by `length = 0` at every
 * {@link clear} (between steps) regrew from nothing in every step: on the bench's re-plan (5,700
 * replacements) the copies of nine growing arrays were most of the ~300 bytes a replacement
 * allocated, and every scavenge during a step copied the live ones again.
 */
export class ReplaceLog<O> {
  /** Flat part numbers; a string key (a part no flat number names) sits in `stringKeys`. */
  private keys = new Int32Array(64)
  private readonly stringKeys = new Map<number, string>()
  /** The override the replacement overwrote (undefined: the part was original). */
  private readonly befores: (O | undefined)[] = []
  private messages = new Int32Array(64)
  private groups = new Int32Array(64)
  private deltas = new Float64Array(64)
  private flags = new Uint8Array(64)
  /** What the ledger needs to take it back (see ContextLedger.replacing). */
  private ledgers = new Int32Array(64)
  private count = 0

  get length(): number {
    return this.count
  }

  push(
    key: number | string,
    before: O | undefined,
    message: number,
    group: number,
    delta: number,
    counted: boolean,
    visible: boolean,
    ledger: number,
  ): void {
    const i = this.count
    if (i === this.keys.length) this.grow()
    if (typeof key === 'number') this.keys[i] = key
    else {
      this.keys[i] = -1
      this.stringKeys.set(i, key)
    }
    this.befores[i] = before
    this.messages[i] = message
    // A part outside the conversation has no group (undefined): -1 reads back as nothing too.
    this.groups[i] = group >= 0 ? group : -1
    this.deltas[i] = delta
    this.flags[i] = (counted ? COUNTED : 0) | (visible ? VISIBLE : 0)
    this.ledgers[i] = ledger
    this.count = i + 1
  }

  /** The last row's key, as it was pushed. */
  lastKey(): number | string {
    const i = this.count - 1
    const k = this.keys[i] as number
    return k >= 0 ? k : (this.stringKeys.get(i) as string)
  }
  lastBefore(): O | undefined {
    return this.befores[this.count - 1]
  }
  lastMessage(): number {
    return this.messages[this.count - 1] as number
  }
  lastGroup(): number {
    return this.groups[this.count - 1] as number
  }
  lastDelta(): number {
    return this.deltas[this.count - 1] as number
  }
  lastFlags(): number {
    return this.flags[this.count - 1] as number
  }
  lastLedger(): number {
    return this.ledgers[this.count - 1] as number
  }

  /** Forget every row (see WorkingView.settle); the capacity stays for the next step. */
  clear(): void {
    // Dropped references, so the overrides they held are not kept alive by the log.
    this.befores.fill(undefined, 0, this.count)
    this.stringKeys.clear()
    this.count = 0
  }

  pop(): void {
    const i = this.count - 1
    if (i < 0) return
    this.befores[i] = undefined
    if ((this.keys[i] as number) < 0) this.stringKeys.delete(i)
    this.count = i
  }

  private grow(): void {
    const n = this.keys.length * 2
    this.keys = grown(this.keys, new Int32Array(n))
    this.messages = grown(this.messages, new Int32Array(n))
    this.groups = grown(this.groups, new Int32Array(n))
    this.deltas = grown(this.deltas, new Float64Array(n))
    this.flags = grown(this.flags, new Uint8Array(n))
    this.ledgers = grown(this.ledgers, new Int32Array(n))
  }
}

function grown<T extends Int32Array | Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never)
  return to
}
