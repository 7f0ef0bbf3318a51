/**
 * The lists and lookups a plan index decides over (plan-index.ts), built from the occurrences
 * alone under the mode and `writesMakeStale`, so that plans of other params values can share them.
 */
import type { Occurrence, StaleCause } from './plan.ts'

export type Later = { index: number; cause: StaleCause }

/** `cover(o)` as last found: reads up to index `scanned` looked at, under that list version. */
export interface CoverMemo {
  readonly o: Occurrence
  readonly version: number
  readonly scanned: number
  readonly found: Later | undefined
}

/**
 * What `add` builds from the occurrences alone (under the mode and `writesMakeStale`): the lists
 * and lookups `decide` reads. A plan of the same records under other params values (an edit of
 * the step's own params) borrows it and only decides (see `PlanIndex.borrowing`).
 */
export interface PlanStructure {
  /** The occurrence at every index (to take out when a result is redone). */
  readonly occ: Occurrence[]
  readonly byKey: Map<string, Occurrence[]>
  /** Fixed: the newest fresh full read per key, for ranged reads to point to. */
  readonly lastFullRead: Map<string, Occurrence>
  /** Fixed: fresh ranged reads of one file, per path, in order. */
  readonly readsOf: Map<string, Occurrence[]>
  /** Fixed (writesMakeStale): indexes of results whose call wrote the path, in order. */
  readonly writesOf: Map<string, number[]>
  /** Keys whose outcomes read `lastFullRead` / `readsOf` / `writesOf` at that entry. */
  readonly fullReadUsers: Map<string, Set<string>>
  readonly coverUsers: Map<string, Set<string>>
  readonly writeUsers: Map<string, Set<string>>
  /**
   * What `cover` found for the occurrence at each index: replay appends reads of a file at every
   * model call and re-decides every key that reads it, and each decision scanned the file's later
   * reads again from the start (a file read in many ranges made that quadratic in the session).
   * Valid while the file's list only grew at its end (`readsChanged` unchanged). It reads no
   * params, so plans borrowing the structure (an edit of the step's own numbers) take the answers
   * too: a fresh plan scans every later ranged read of a file per ranged read of it.
   */
  readonly covered: (CoverMemo | undefined)[]
  /** Per path: how often its reads list changed other than by a read appended at its end. */
  readonly readsChanged: Map<string, number>
}

export const emptyStructure = (): PlanStructure => ({
  occ: [],
  byKey: new Map(),
  lastFullRead: new Map(),
  readsOf: new Map(),
  writesOf: new Map(),
  fullReadUsers: new Map(),
  coverUsers: new Map(),
  writeUsers: new Map(),
  covered: [],
  readsChanged: new Map(),
})
