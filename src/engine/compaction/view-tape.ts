import type { Part } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import type { InsertedSummary } from './view-parts.ts'

const TAPE_REPLACE = 0
const TAPE_EXCLUDE = 1
const TAPE_MARK = 2
const TAPE_INSERT = 3
const TAPE_RETRACT = 4

/** The changes a tape can make again: the working view's own (view.ts). */
export interface TapeTarget {
  replace(
    ref: PartRef,
    replacement: Part | null,
    tokens: number,
    strategy: string,
    newer?: PartRef,
  ): void
  exclude(group: number): void
  markNewestCopy(ref: PartRef, source: PartRef): void
  insert(summary: InsertedSummary): void
  retract(id: string): boolean
}

/**
 * One step's changes to the view, in order, so that the very same changes can be made again
 * (strategies/step-records.ts): replacements (with their price), exclusions, newest-copy marks,
 * inserted summaries (the same immutable record) and retracted ones. A rollback breaks it: such
 * a step is not played back. Columns, not an object per change: a step makes thousands.
 */
export class ViewTape {
  /** Per change: which kind (the TAPE_ constants). */
  private readonly ops: number[] = []
  /** Replace: the part's address; mark: the newest copy, then the stub that relies on it. */
  private readonly refs: PartRef[] = []
  /** Replace: the replacement. */
  private readonly parts: (Part | null)[] = []
  /** Replace: its price; exclude: the group. */
  private readonly nums: number[] = []
  /** Replace: the strategy named on the override, and the newer copy it defers to. */
  private readonly by: string[] = []
  private readonly newer: (PartRef | undefined)[] = []
  /** Insert: the summary; retract: its id. */
  private readonly summaries: (InsertedSummary | string)[] = []
  broken = false

  replaced(
    ref: PartRef,
    replacement: Part | null,
    tokens: number,
    strategy: string,
    newer: PartRef | undefined,
  ): void {
    this.ops.push(TAPE_REPLACE)
    this.refs.push(ref)
    this.parts.push(replacement)
    this.nums.push(tokens)
    this.by.push(strategy)
    this.newer.push(newer)
  }

  excluded(group: number): void {
    this.ops.push(TAPE_EXCLUDE)
    this.nums.push(group)
  }

  marked(ref: PartRef, source: PartRef): void {
    this.ops.push(TAPE_MARK)
    this.refs.push(ref, source)
    this.nums.push(0)
  }

  inserted(summary: InsertedSummary): void {
    this.ops.push(TAPE_INSERT)
    this.nums.push(0)
    this.summaries.push(summary)
  }

  retracted(id: string): void {
    this.ops.push(TAPE_RETRACT)
    this.nums.push(0)
    this.summaries.push(id)
  }

  /** Make the taped changes again on `view`, in order (it must be in the state they were taped in). */
  playOn(view: TapeTarget): void {
    const { ops, refs, parts, nums, by, newer, summaries } = this
    let r = 0
    let k = 0
    let n = 0
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]
      if (op === TAPE_INSERT) view.insert(summaries[n++] as InsertedSummary)
      else if (op === TAPE_RETRACT) view.retract(summaries[n++] as string)
      else if (op === TAPE_REPLACE) {
        view.replace(
          refs[r++] as PartRef,
          parts[k] as Part | null,
          nums[i] as number,
          by[k] as string,
          newer[k],
        )
        k++
      } else if (op === TAPE_EXCLUDE) view.exclude(nums[i] as number)
      else {
        const ref = refs[r++] as PartRef
        view.markNewestCopy(ref, refs[r++] as PartRef)
      }
    }
  }
}

/** Per prepared conversation, call accounting and limit: the lineage of a view nothing changed. */
const roots = new WeakMap<object, WeakMap<object, Map<number, object>>>()

/** The lineage token of a view nothing changed yet (see `WorkingView.lineage`). */
export function rootLineage(prepared: object, accounting: object, limit: number): object {
  let byAccounting = roots.get(prepared)
  if (!byAccounting) roots.set(prepared, (byAccounting = new WeakMap()))
  let byLimit = byAccounting.get(accounting)
  if (!byLimit) byAccounting.set(accounting, (byLimit = new Map()))
  let root = byLimit.get(limit)
  if (!root) byLimit.set(limit, (root = {}))
  return root
}
