/**
 * Replay runs the prune walk at every model call on one view whose decisions persist. Below the
 * recent turns, the history holds only outputs whose answer can change by their count and
 * position: outputs that still count (kept within protectTokens, or candidates), cleared ones (of
 * which only the newest matters, as the `pastCompacted` pointer), and the few outputs clearing
 * refused (a placeholder longer than the output, a protection). The frontier keeps exactly those,
 * so the next walk stops there: a call walks only the recent turns and what is new since the
 * last one.
 *
 * The frontier is carried forward, not rebuilt: its outputs are kept oldest first with running
 * sums, so a call appends what it walked past and finds where protectTokens runs out by a binary
 * search (the walk adds up from the newest, so the candidates are always the oldest outputs).
 * Only a call that clears something rebuilds it; a call that clears nothing costs what is new
 * since the previous one, not the size of the history (issue 14).
 *
 * The frontier is valid while nothing before it changed (the view's change log: replacement,
 * dropped group, rollback), the recent turns lie above it, and no compaction boundary (summary,
 * upstream marker) lies inside it. Only replay (no sentences for non-changes) reads it; the
 * equality test and a property test hold it to the full walk's decisions.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import { firstAtLeast } from '../../arrays.ts'
import type { PartRef } from '../../pairing.ts'
import type { PruneCandidate, PruneParams } from './walk.ts'
import type { WalkFacts } from './walk-facts.ts'
import { PerViewParams, stillHolds } from './kept.ts'

/** An output that still counts towards protectTokens (kept, or a candidate not cleared). */
export interface LiveItem {
  readonly kind: 'live'
  readonly ref: PartRef
  readonly estimate: number
  /** The candidate as the walk would make it (without `pastCompacted`). */
  readonly candidate: PruneCandidate
}

/** What a walk met below the recent turns, in walk order. */
export type MetItem = LiveItem | { readonly kind: 'compacted'; readonly ref: PartRef }

export interface Region {
  /** Messages before this index are summarised by the lists below. */
  below: number
  /** What it was last brought up to date under (kept.ts `ReadUnder`). */
  mark: number
  limit: number
  /** Oldest first: appending what a later walk went past keeps the order. */
  readonly live: LiveItem[]
  /** `sums[i]`: the estimates of `live[0..i)` added up (`sums[0]` = 0). */
  readonly sums: number[]
  /** The newest cleared output, and how many live outputs are older than it. */
  compacted: { readonly ref: PartRef; readonly olderLive: number } | null
  /**
   * How many summaries the view had inserted: inserting one is not in the change log, and one
   * anchored inside the frontier would be a boundary the frontier does not know of.
   */
  summaries: number
}

/** What a replay walk noted to bring the frontier up to date with. */
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
   * What the walk itself met below the recent turns (not the frontier's outputs), in walk order:
   * outputs that count and were kept, cleared outputs, and candidates (by their index in the
   * walk's own candidate list).
   */
  readonly met: (MetItem | number)[]
  /** The frontier this walk used, if any. */
  region: Region | null
  /** How many of the frontier's oldest live outputs are candidates at this walk. */
  regionCandidates: number
}

const regions = new PerViewParams<Region>()

/** The frontier recorded for this view and params, when it is still valid. */
export function regionOf(ctx: StrategyContext, p: PruneParams, facts: WalkFacts): Region | null {
  const r = regions.get(ctx.view, p)
  return r && stillHolds(ctx, facts, r, r.below) ? r : null
}

/**
 * How many of the frontier's oldest outputs are candidates when `above` tokens of output were
 * counted before the walk reached it: the walk adds up newest first, so output i's running total
 * is `above + sums[n] - sums[i]`, and it is a candidate when that exceeds protectTokens — a
 * prefix of the list, found by binary search on `sums`.
 */
export function candidatesIn(region: Region, above: number, protectTokens: number): number {
  const n = region.live.length
  return firstAtLeast(region.sums, above + (region.sums[n] as number) - protectTokens, n)
}

/**
 * The frontier's candidates in walk order (newest first), each with the newest cleared output
 * the walk went past: `past` when the walk met one above the frontier, else the frontier's own.
 */
export function regionCandidates(
  region: Region,
  count: number,
  past: PartRef | undefined,
): PruneCandidate[] {
  const out: PruneCandidate[] = []
  const compacted = region.compacted
  for (let i = count - 1; i >= 0; i--) {
    const own = compacted && i < compacted.olderLive ? compacted.ref : undefined
    out.push(withPast((region.live[i] as LiveItem).candidate, past ?? own))
  }
  return out
}

/**
 * After the walk's candidates were applied, bring the frontier for the next walk over this view
 * up to date — or forget it when this walk cannot give one. `own` are the candidates the walk met
 * itself (the frontier's follow them); `cleared[i]`: candidate i was replaced (null: nothing was).
 */
export function recordRegion(
  ctx: StrategyContext,
  p: PruneParams,
  track: WalkTrack | null,
  own: readonly PruneCandidate[],
  cleared: readonly boolean[] | null,
): void {
  if (!track) return
  const below = Math.min(track.oldestKept, track.lowestBoundary + 1, ctx.view.limit)
  // A boundary stopped the walk (history below it unwalked), or the old frontier's own list was
  // cut (an output in it was kept): start again from a full walk next time.
  if (!track.complete || (track.region && below < track.region.below)) {
    regions.delete(ctx.view, p)
    return
  }
  const metItem = (entry: MetItem | number): MetItem | null => {
    if (typeof entry !== 'number') return entry.ref.message < below ? entry : null
    const c = own[entry] as PruneCandidate
    if (c.ref.message >= below) return null
    return cleared?.[entry]
      ? { kind: 'compacted', ref: c.ref }
      : { kind: 'live', ref: c.ref, estimate: c.estimate, candidate: withoutPast(c) }
  }
  const region = track.region
  if (region && !cleared?.includes(true)) {
    // Nothing cleared: the frontier's lists stay as they are; what this walk went past is newer
    // than all of it, so it is appended (oldest first, the reverse of the walk).
    for (let k = track.met.length - 1; k >= 0; k--) {
      const item = metItem(track.met[k] as MetItem | number)
      if (item) append(region, item)
    }
    region.below = below
    region.mark = ctx.view.changeMark
    region.limit = ctx.view.limit
    region.summaries = ctx.view.summaries().length
    return
  }
  // Something was cleared (or there was no frontier): the new frontier holds, oldest first, the
  // old frontier's outputs and then what this walk met (the reverse of walk order), with one
  // record for the newest cleared output (only it can become `pastCompacted`). The old
  // frontier's outputs are not read: its own list is a few thousand objects on a long session,
  // cold by now, so an estimate is the difference of its running sums, and only the newest
  // cleared one's address is looked up (issue 14).
  const made: Region = {
    below,
    mark: ctx.view.changeMark,
    limit: ctx.view.limit,
    live: [],
    sums: [0],
    compacted: null,
    summaries: ctx.view.summaries().length,
  }
  let newest: PartRef | null = null
  let newestInRegion = -1
  let olderLive = 0
  if (region) {
    const { live, sums, compacted } = region
    // The frontier's candidates follow the walk's own, newest first: its output i (oldest
    // first) is candidate `first - i` when i < regionCandidates.
    const first = own.length + track.regionCandidates - 1
    for (let i = 0; i <= live.length; i++) {
      if (compacted && i === compacted.olderLive) {
        newest = compacted.ref
        newestInRegion = -1
        olderLive = made.live.length
      }
      if (i === live.length) break
      if (i < track.regionCandidates && cleared?.[first - i]) {
        newestInRegion = i
        olderLive = made.live.length
      } else {
        made.live.push(live[i] as LiveItem)
        const estimate = (sums[i + 1] as number) - (sums[i] as number)
        made.sums.push((made.sums[made.sums.length - 1] as number) + estimate)
      }
    }
    if (newestInRegion >= 0) newest = (live[newestInRegion] as LiveItem).ref
  }
  for (let k = track.met.length - 1; k >= 0; k--) {
    const item = metItem(track.met[k] as MetItem | number)
    if (!item) continue
    if (item.kind === 'compacted') {
      newest = item.ref
      olderLive = made.live.length
    } else append(made, item)
  }
  if (newest) made.compacted = { ref: newest, olderLive }
  regions.set(ctx.view, p, made)
}

/** Add an output newer than everything in the frontier. */
function append(region: Region, item: MetItem): void {
  if (item.kind === 'compacted') {
    // Only the newest cleared output can become `pastCompacted`.
    region.compacted = { ref: item.ref, olderLive: region.live.length }
    return
  }
  region.live.push(item)
  region.sums.push((region.sums[region.sums.length - 1] as number) + item.estimate)
}

function withoutPast(c: PruneCandidate): PruneCandidate {
  if (!c.pastCompacted) return c
  const { pastCompacted: _, ...rest } = c
  return rest
}

/**
 * A frontier candidate as the walk makes it, with the newest cleared output it went past. A fresh
 * literal (the walk's own key order): the frontier's candidates are asked for only when a prune
 * applies, and then each is cleared, so a cache of these copies (a WeakMap entry per candidate)
 * was hit almost never and cost more than the copy.
 */
export function withPast(c: PruneCandidate, past: PartRef | undefined): PruneCandidate {
  if (!past) return c
  const { ref, group, part, name, estimate } = c
  return { ref, group, part, name, estimate, pastCompacted: past }
}
