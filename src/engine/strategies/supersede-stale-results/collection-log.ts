import type { ResultInfo } from './collect.ts'

/**
 * How the collections over one view were made, one from the last: a planner carries its work on
 * the collection it planned last to a later one through the edits in between. Positions and cuts
 * only, no records: links from a collection to the one it was made from held every collection of
 * a replay alive (calls × results: 8 GB on 130 copies of a Codex rollout) unless each planner cut
 * them behind it, and then a planner that sat out some calls (LIP's twin plan, made only to word
 * a decision) planned afresh.
 */
export interface CollectionLog {
  /**
   * `edits[v]` made the collection at version v + 1 from the one at version v: its records
   * below `cut` are those of version v except at the `redone` positions (their part was
   * replaced), and the records from `cut` on were collected again or are new.
   */
  readonly edits: { readonly redone: readonly number[]; readonly cut: number }[]
}

/** Where a collection stands in its view's log. */
export interface CollectionVersion {
  readonly log: CollectionLog
  readonly version: number
}

export const newLog = (): CollectionLog => ({ edits: [] })

/** Collections made over a view (none shared with another view), with their place in its log. */
const versions = new WeakMap<readonly ResultInfo[], CollectionVersion>()

/**
 * Where `results` stands in the log of the view that collected it, if it was registered. A
 * replay brings its collection up to date in place (a new version of the same array): what was
 * derived from it is current while its version object is the same.
 */
export function collectionVersion(results: readonly ResultInfo[]): CollectionVersion | undefined {
  return versions.get(results)
}

/** Register a collection made over a view at its place in the view's log. */
export function registerVersion(results: readonly ResultInfo[], at: CollectionVersion): void {
  versions.set(results, at)
}

/** Collections something keys on (shared.ts): never changed in place, copied instead. */
const pinned = new WeakSet<readonly ResultInfo[]>()

/** Keep `results` as it is: a later collection over its view is made as a copy. */
export function pinCollection(results: readonly ResultInfo[]): void {
  pinned.add(results)
}

/** Whether something keys on `results` (see {@link pinCollection}). */
export function isPinned(results: readonly ResultInfo[]): boolean {
  return pinned.has(results)
}
