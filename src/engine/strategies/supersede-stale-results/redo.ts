/**
 * Replay keeps the last collection of tool results over its one view. After a step replaced parts
 * (stubbed results, cleared outputs), only the records of those messages need redoing: this finds
 * them, or says the collection must be made again.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { Group } from '../../groups.ts'
import type { ResultInfo } from './collect.ts'

/** A record to redo: its position, flat part number and call. */
export interface Redo {
  readonly index: number
  readonly k: number
  readonly call: number
}

/**
 * The records of `last` to redo in place when every change to the view since it was a replaced
 * part whose message keeps the same collected results; null when the collection must be redone
 * (a dropped group, a rollback, a result that appeared or vanished).
 */
export function redoSince(
  view: StrategyContext['view'],
  last: { readonly out: readonly ResultInfo[]; readonly limit: number; readonly mark: number },
  collectable: (k: number) => { readonly call: number } | null,
): Redo[] | null {
  const { offset } = view.parts
  const { groupOfMessage, groups } = view.prepared.grouping
  const changed = new Set<number>()
  for (const m of view.changesSince(last.mark)) {
    if (m < 0) return null
    const g = groupOfMessage[m] as number
    if (view.isExcluded(g)) {
      // A dropped group that held no record leaves the collection as it was (the fallback and
      // summaries mostly drop groups whose results were already cleared, or that have none):
      // only one that held records makes the collection start over.
      for (const gm of (groups[g] as Group).messages)
        if (gm < last.limit && last.out[firstAtOrAfter(last.out, gm)]?.ref.message === gm)
          return null
      continue
    }
    if (m < last.limit) changed.add(m)
  }
  const redo: Redo[] = []
  for (const m of changed) {
    let index = firstAtOrAfter(last.out, m)
    for (let k = offset[m] as number; k < (offset[m + 1] as number); k++) {
      const found = collectable(k)
      const record = last.out[index]
      const here = record !== undefined && record.ref.message === m
      if (!found) {
        if (here && (offset[m] as number) + record.ref.part === k) return null
        continue
      }
      if (!here || (offset[m] as number) + record.ref.part !== k) return null
      redo.push({ index, k, call: found.call })
      index++
    }
    if (last.out[index]?.ref.message === m) return null
  }
  return redo
}

/** Position of the first record at or after message `m` (records are in (message, part) order). */
function firstAtOrAfter(out: readonly ResultInfo[], m: number): number {
  let lo = 0
  let hi = out.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((out[mid] as ResultInfo).ref.message < m) lo = mid + 1
    else hi = mid
  }
  return lo
}
