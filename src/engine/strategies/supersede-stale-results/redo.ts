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
 * How to bring `last` up to the view: the records before `cut` stand except those to redo in place
 * (their part was replaced and their message keeps the same collected results); the records from
 * `cut` on are collected again (a group that held them was dropped). Null when the collection must
 * be made afresh (a rollback, a result that appeared or vanished, most records dropped).
 */
export function redoSince(
  view: StrategyContext['view'],
  last: { readonly out: readonly ResultInfo[]; readonly limit: number; readonly mark: number },
  collectable: (k: number) => { readonly call: number } | null,
): { readonly redo: Redo[]; readonly cut: number } | null {
  const { offset } = view.parts
  const { groupOfMessage, groups } = view.prepared.grouping
  const changes = view.changesSince(last.mark)
  // Records from the first one in a dropped group on are collected again (with new positions):
  // the fallback and summaries drop groups, and late in a replay the records they held are
  // mostly the newest few, so the records before them all stand.
  let cut = last.out.length
  for (const m of changes) {
    if (m < 0) return null
    const g = groupOfMessage[m] as number
    if (!view.isExcluded(g)) continue
    // A dropped group that held no record leaves the collection as it was.
    for (const gm of (groups[g] as Group).messages) {
      if (gm >= last.limit) break
      const at = firstAtOrAfter(last.out, gm)
      if (last.out[at]?.ref.message === gm) cut = Math.min(cut, at)
    }
  }
  // Re-collecting most of the records costs more than collecting afresh over the live groups.
  if (cut < last.out.length / 2) return null
  const changed = new Set<number>()
  for (const m of changes) if (m < last.limit) changed.add(m)
  // In message order, each record found from the last one found: a step that cleared thousands
  // of results (a long session's window) then reads the records in one pass, where a search of
  // the whole list per message missed the cache at every step of it (issue 14).
  const ordered = new Int32Array(changed.size)
  let n = 0
  for (const m of changed) ordered[n++] = m
  ordered.sort()
  const redo: Redo[] = []
  let from = 0
  for (const m of ordered) {
    let index = firstAtOrAfter(last.out, m, from)
    from = index
    // At or after the cut: collected again anyway (a dropped group's messages among them).
    if (index >= cut) continue
    for (let k = offset[m] as number; k < (offset[m + 1] as number); k++) {
      const found = collectable(k)
      const record = last.out[index]
      const here = record !== undefined && record.ref.message === m
      if (!found) {
        if (here && (offset[m] as number) + record.ref.part === k) return null
        continue
      }
      if (!here || (offset[m] as number) + record.ref.part !== k) return null
      if (index < cut) redo.push({ index, k, call: found.call })
      index++
    }
    if (index < cut && last.out[index]?.ref.message === m) return null
  }
  return { redo, cut }
}

/**
 * Position of the first record at or after message `m` (records are in (message, part) order),
 * searched from `from` on: every record before it is of an earlier message. Galloping from there
 * finds a nearby record in a few steps, a far one in twice a binary search's.
 */
function firstAtOrAfter(out: readonly ResultInfo[], m: number, from = 0): number {
  let lo = from
  let hi = from
  for (let step = 1; hi < out.length && (out[hi] as ResultInfo).ref.message < m; step *= 2) {
    lo = hi + 1
    hi = lo + step
  }
  hi = Math.min(hi, out.length)
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((out[mid] as ResultInfo).ref.message < m) lo = mid + 1
    else hi = mid
  }
  return lo
}
