/**
 * Replay runs the prune walk at every model call on one view whose decisions persist. Once a walk
 * has cleared what it could, the oldest history holds only outputs that can no longer change the
 * walk's answer except by their count: cleared ones (of which only the newest matters, as the
 * `pastCompacted` pointer), and the few outputs clearing refused (a placeholder longer than the
 * output, a protection). The frontier keeps exactly those, in walk order, so the next walk stops
 * there and replays the list instead of the history: a call costs what is new since the last one.
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
  /** The oldest output that was kept (recent turns, or within protectTokens). */
  oldestKept: number
  /** Cleared outputs met, in walk order. */
  readonly compactedMet: PartRef[]
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

const after = (a: PartRef, b: PartRef): boolean =>
  a.message !== b.message ? a.message > b.message : a.part > b.part

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
  const items: RegionItem[] = []
  candidates.forEach((c, i) => {
    if (c.ref.message >= below) return
    items.push(
      cleared[i]
        ? { kind: 'compacted', ref: c.ref }
        : { kind: 'live', ref: c.ref, estimate: c.estimate, candidate: withoutPast(c) },
    )
  })
  for (const ref of track.compactedMet)
    if (ref.message < below) items.push({ kind: 'compacted', ref })
  const oldFirst = track.region?.items.find((x) => x.kind === 'compacted')
  if (oldFirst) items.push(oldFirst)
  items.sort((a, b) => (after(a.ref, b.ref) ? -1 : after(b.ref, a.ref) ? 1 : 0))
  // Only the newest cleared output can become `pastCompacted`: drop the others.
  let seenCompacted = false
  const kept = items.filter((x) => {
    if (x.kind === 'live') return true
    if (seenCompacted) return false
    seenCompacted = true
    return true
  })
  byParams.set(p, { below, mark: ctx.view.changeMark, items: kept })
}

function withoutPast(c: PruneCandidate): PruneCandidate {
  if (!c.pastCompacted) return c
  const { pastCompacted: _, ...rest } = c
  return rest
}
