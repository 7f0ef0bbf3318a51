/**
 * The lists and lookups a plan index decides over (plan-index.ts), built from the occurrences
 * alone under the mode and `writesMakeStale`, so that plans of other params values can share them.
 */
import type { Occurrence, StaleCause } from './plan.ts'

export type Later = { index: number; cause: StaleCause }

/**
 * `cover(o)` as last found: reads up to index `scanned` looked at, with the path's reads list at
 * those counts of inserts and removals (see `ReadsVersion`), and the read found (`by`).
 */
export interface CoverMemo {
  readonly o: Occurrence
  readonly inserted: number
  /** Moved up when the memo is found to hold after later removals (see plan-lookups.ts). */
  removed: number
  readonly scanned: number
  readonly found: Later | undefined
  readonly by: Occurrence | undefined
}

/**
 * Per path: how its reads list changed other than by a new read at its end. A removal changes
 * the first later read covering a result only when it removes that read; an insert at or before
 * the newest index the list ever held (a redone read, or one collected again after a cut) may
 * put an earlier cover before it, or one among the reads a memo already scanned.
 */
export interface ReadsVersion {
  inserted: number
  removed: number
  /** The newest index the list ever held. */
  high: number
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
   * Valid while the file's list only grew at its end or lost reads other than the one found
   * (`readsVersion`). It reads no
   * params, so plans borrowing the structure (an edit of the step's own numbers) take the answers
   * too: a fresh plan scans every later ranged read of a file per ranged read of it.
   */
  readonly covered: (CoverMemo | undefined)[]
  /** Per path: how its reads list changed other than by a read appended at its end. */
  readonly readsVersion: Map<string, ReadsVersion>
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
  readsVersion: new Map(),
})
