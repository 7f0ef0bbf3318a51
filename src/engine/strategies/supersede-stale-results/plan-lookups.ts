/**
 * The two lookups of the fixed mode that `decide` (plan-index.ts) asks about each fresh ranged
 * read: a later read of the same file covering its lines, a later write to the file.
 */
import { after, byIndex, itself } from './plan-lists.ts'
import type { Occurrence } from './plan.ts'
import type { Later, PlanStructure } from './plan-structure.ts'
import { covers } from './shell.ts'

/**
 * Fixed: the first later fresh read of the same file whose lines cover this one (a different
 * key: same-key results are handled by the newest rule).
 */
export function coveringRead(s: PlanStructure, o: Occurrence): Later | undefined {
  const id = o.identity
  if (!id?.lines || id.reads?.length !== 1) return undefined
  const path = id.reads[0] as string
  const reads = s.readsOf.get(path) ?? []
  const version = s.readsChanged.get(path) ?? 0
  const memo = s.covered[o.index]
  let from = o.index
  if (memo?.o === o && memo.version === version) {
    // The list only grew at its end since: the answer found stands, else scan the new reads.
    if (memo.found) return memo.found
    from = Math.max(from, memo.scanned)
  }
  let found: Later | undefined
  // The list is in index order: start at the first later read (a file read often has a long
  // list, and every key reading it is re-decided when a read of it is added).
  for (let at = after(reads, from, byIndex); at < reads.length; at++) {
    const r = reads[at] as Occurrence
    const rl = r.identity?.lines
    if (r.index <= o.index || !rl || r.identity?.key === id.key) continue
    if (!covers(rl, id.lines)) continue
    const full = rl.kind === 'lines' && rl.start === 1 && rl.end === null
    found = { index: r.index, cause: full ? 'full_read' : 'covering_read' }
    break
  }
  const scanned = reads.length > 0 ? (reads[reads.length - 1] as Occurrence).index : from
  // Filled up to the index with `undefined` rather than written past its end: a write past the
  // end makes the array holey, and a large gap turns it into a dictionary (slow lookups).
  const covered = s.covered
  while (covered.length < o.index) covered.push(undefined)
  covered[o.index] = { o, version, scanned, found }
  return found
}

/**
 * Fixed: the first later write to the one file this result shows. Writes count whatever became
 * of their own result (a stubbed edit still happened). One file only: a command that read
 * several files still shows the ones not written, and no newer result repeats them.
 */
export function laterWrite(
  s: PlanStructure,
  writesMakeStale: boolean,
  o: Occurrence,
): number | undefined {
  const reads = o.identity?.reads
  if (!writesMakeStale || reads?.length !== 1) return undefined
  // Writes are kept in index order: the first later one is the smallest.
  const writes = s.writesOf.get(reads[0] as string) ?? []
  return writes[after(writes, o.index, itself)]
}

/**
 * Can the read `r` of `path` coming into or going out of the file's list change which later read
 * covers `o` first (the answer of {@link coveringRead})? Only if it is later than `o`, another
 * key's, covers its lines, and no earlier later read covers them already (known from the memo
 * when it is of the list as it was, `version`). Replay re-decides only the keys where it can:
 * a hot file is read in many ranges, and each new read of it re-decided every one of them.
 */
export function coverMayChange(
  s: PlanStructure,
  o: Occurrence,
  r: Occurrence,
  path: string,
  version: number,
): boolean {
  const id = o.identity
  const rl = r.identity?.lines
  if (!id?.lines || !rl || id.reads?.length !== 1 || id.reads[0] !== path) return false
  if (r.index <= o.index || r.identity?.key === id.key || !covers(rl, id.lines)) return false
  const memo = s.covered[o.index]
  const found = memo?.o === o && memo.version === version ? memo.found : undefined
  return !found || found.index >= r.index
}

/**
 * Can a write at index `w` to `path` (the one before it in the file's list at `prev`, -1 for
 * none) coming or going change the first later write of `o` (the answer of {@link laterWrite})?
 * Only if `o` reads that one file and lies between the two.
 */
export function writeMayChange(o: Occurrence, path: string, w: number, prev: number): boolean {
  const reads = o.identity?.reads
  return reads?.length === 1 && reads[0] === path && prev < o.index && o.index < w
}

/** The index of the last write in `writes` (index-ordered) before index `w`; -1 for none. */
export function writeBefore(writes: readonly number[], w: number): number {
  return writes[after(writes, w - 1, itself) - 1] ?? -1
}
