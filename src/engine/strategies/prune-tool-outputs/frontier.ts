/**
 * Replay runs the prune walk at every model call on one view whose decisions persist. Below the
 * recent turns, the history holds only outputs whose answer can change by their count and
 * position: outputs that still count (kept within protectTokens, or candidates), cleared ones (of
 * which only the newest matters, as the `pastCompacted` pointer), and the few outputs clearing
 * refused (a placeholder longer than the output, a protection). The frontier keeps exactly those,
 * in walk order, so the next walk stops there and replays the list instead of the history: a
 * call walks only the recent turns and what is new since the last one, then adds up the list.
 *
 * The frontier is valid while nothing before it changed (the view's change log: replacement,
 * dropped group, rollback), the recent turns lie above it, and no compaction boundary (summary,
 * upstream marker) lies inside it. Only replay (no sentences for non-changes) reads it; the
 * equality test holds it to the full walk's decisions.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import type { PartRef } from '../../pairing.ts'
import type { PruneCandidate, PruneParams } from './walk.ts'

export type RegionItem =
  | {
      readonly kind: 'live'
      readonly ref: PartRef
      readonly estimate: number
      /** The candidate as the walk would make it (without `pastCompacted`). */
      readonly candidate: PruneCandidate
    }
  | { readonly kind: 'compacted'; readonly ref: PartRef }

export interface Region {
  /** Messages before this index are summarised by `items`. */
  readonly below: number
  /** The view's change mark when it was recorded. */
  readonly mark: number
  /** In walk order (newest first): every output that still counts, and the newest cleared one. */
  readonly items: readonly RegionItem[]
}

/** What a replay walk noted to build the next frontier from. */
export interface WalkTrack {
  /** The walk reached the oldest message (or a valid frontier) without a boundary stopping it. */
  complete: boolean
  /** The oldest message walked that is or may become a boundary (summary, upstream marker). */
  lowestBoundary: number
  /**
   * The frontier may not lie above this: the oldest output of the recent turns, and the message
   * where the walk left them (a later walk must have counted those turns when it reaches it).
   */
  oldestKept: number
  /**
   * What the walk met below the recent turns, in walk order: outputs that count and were kept,
   * cleared outputs (as region items), and candidates (by their index in the walk's list).
   */
  readonly met: (RegionItem | number)[]
  /** Per candidate index: the frontier item it was replayed from (null: met in the walk). */
  readonly sources: (RegionItem | null)[]
  /** The frontier this walk used, if any. */
  region: Region | null
}

const regions = new WeakMap<object, WeakMap<PruneParams, Region>>()

/** The frontier recorded for this view and params, when it is still valid. */
export function regionOf(ctx: StrategyContext, p: PruneParams): Region | null {
  const r = regions.get(ctx.view)?.get(p)
  if (!r || ctx.view.changedBefore(r.mark, r.below)) return null
  return r
}

/**
 * After the walk's candidates were applied (`cleared[i]`: candidate i was replaced), record the
 * frontier for the next walk over this view — or forget it when this walk cannot give one.
 */
export function recordRegion(
  ctx: StrategyContext,
  p: PruneParams,
  track: WalkTrack | null,
  candidates: readonly PruneCandidate[],
  cleared: readonly boolean[],
): void {
  if (!track) return
  let byParams = regions.get(ctx.view)
  if (!byParams) {
    byParams = new WeakMap()
    regions.set(ctx.view, byParams)
  }
  const below = Math.min(track.oldestKept, track.lowestBoundary + 1, ctx.view.limit)
  // A boundary stopped the walk (history below it unwalked), or the old frontier's own list was
  // cut (an output in it was kept): start again from a full walk next time.
  if (!track.complete || (track.region && below < track.region.below)) {
    byParams.delete(p)
    return
  }
  // `met` is in walk order (newest first), so the list needs no sorting; only the newest cleared
  // output can become `pastCompacted`: the others are left out.
  const items: RegionItem[] = []
  let seenCompacted = false
  for (const entry of track.met) {
    let item: RegionItem
    if (typeof entry === 'number') {
      const c = candidates[entry] as PruneCandidate
      if (c.ref.message >= below) continue
      item = cleared[entry]
        ? { kind: 'compacted', ref: c.ref }
        : (track.sources[entry] ?? {
            kind: 'live',
            ref: c.ref,
            estimate: c.estimate,
            candidate: withoutPast(c),
          })
    } else {
      if (entry.ref.message >= below) continue
      item = entry
    }
    if (item.kind === 'compacted') {
      if (seenCompacted) continue
      seenCompacted = true
    }
    items.push(item)
  }
  byParams.set(p, { below, mark: ctx.view.changeMark, items })
}

function withoutPast(c: PruneCandidate): PruneCandidate {
  if (!c.pastCompacted) return c
  const { pastCompacted: _, ...rest } = c
  return rest
}

// The newest cleared output changes only when a prune applies: a replayed candidate with the same
// pointer is the same object from one call to the next, not a copy per call.
const withPastCache = new WeakMap<PruneCandidate, PruneCandidate>()

/** A frontier candidate as the walk makes it, with the newest cleared output it went past. */
export function withPast(c: PruneCandidate, past: PartRef | undefined): PruneCandidate {
  if (!past) return c
  const hit = withPastCache.get(c)
  if (hit?.pastCompacted === past) return hit
  const made = { ...c, pastCompacted: past }
  withPastCache.set(c, made)
  return made
}
