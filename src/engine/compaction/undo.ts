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

/** Row flag: the replacement added the part's first override in its message. */
export const COUNTED = 1
/** Row flag: the message was visible, so group, total and ledger figures moved too. */
export const VISIBLE = 2

export class ReplaceLog<O> {
  readonly keys: (number | string)[] = []
  /** The override the replacement overwrote (undefined: the part was original). */
  readonly befores: (O | undefined)[] = []
  readonly messages: number[] = []
  readonly groups: number[] = []
  readonly deltas: number[] = []
  readonly flags: number[] = []
  /** What the ledger needs to take it back (see ContextLedger.replacing). */
  readonly ledger: number[] = []

  get length(): number {
    return this.keys.length
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
    this.keys.push(key)
    this.befores.push(before)
    this.messages.push(message)
    this.groups.push(group)
    this.deltas.push(delta)
    this.flags.push((counted ? COUNTED : 0) | (visible ? VISIBLE : 0))
    this.ledger.push(ledger)
  }

  /** Forget every row (see WorkingView.settle). */
  clear(): void {
    this.keys.length = 0
    this.befores.length = 0
    this.messages.length = 0
    this.groups.length = 0
    this.deltas.length = 0
    this.flags.length = 0
    this.ledger.length = 0
  }

  pop(): void {
    this.keys.pop()
    this.befores.pop()
    this.messages.pop()
    this.groups.pop()
    this.deltas.pop()
    this.flags.pop()
    this.ledger.pop()
  }
}
