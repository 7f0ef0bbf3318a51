import type { MessageRange, RunView, WireUpstreamMarker } from '../../../store/index.ts'

type FullSeries = NonNullable<RunView['replay']>
/** What the chart reads of a replay (the cost arrays are optional: older runs have none). */
export type ReplaySeries = Pick<FullSeries, 'index' | 'before' | 'after' | 'reported' | 'fired'> &
  Partial<Pick<FullSeries, 'costBefore' | 'costAfter' | 'rewrites'>>

/** One model call as the chart draws it (recharts wants an array of plain rows). */
export interface TimelinePoint {
  /** 1-based call number: the x axis. */
  readonly call: number
  /** Index of the assistant message the call produced. */
  readonly index: number
  readonly before: number
  readonly after: number
  /** The prompt size the transcript reported for this call; null when it did not say. */
  readonly reported: number | null
  /** Strategies that changed something at this call. */
  readonly fired: readonly string[]
  /** Compactions the source system did just before this call (the nearest call after them). */
  readonly upstream: readonly WireUpstreamMarker[]
  /** Reconstructed and reported differ by more than 10 % at this call. */
  readonly flagged: boolean
  /** The hidden prefix changes at this call (a step the reconciliation found). */
  readonly step: number | null
  /**
   * The last point: the next call, i.e. the whole session as it stands — the figure the headline
   * shows (the config applied once to everything), not a call of the log.
   */
  readonly now: boolean
  /** USD of this call uncompacted / under the config (null: no price, or the "now" point). */
  readonly costBefore: number | null
  readonly costAfter: number | null
  /** The config forced a cache re-write at this call (tokens written again). */
  readonly rewrite: number
}

/** What the timeline adds to the replay: the headline's figures and the reconciliation's flags. */
export interface TimelineExtras {
  /** The headline's before/after (the next call's context), drawn as the last point. */
  readonly now?: { readonly before: number; readonly after: number; readonly index: number }
  /** Message indexes of calls whose residual is over 10 %. */
  readonly flagged?: readonly number[]
  /** Hidden-prefix steps: from which message, to what. */
  readonly steps?: readonly { readonly fromIndex: number; readonly prefixTokens: number }[]
}

/**
 * The call an upstream compaction is drawn at: the first call at or after the message it precedes
 * (the last call when it comes after every call); -1 without calls.
 */
export function callOfMessage(indexes: ArrayLike<number>, message: number): number {
  if (indexes.length === 0) return -1
  let lo = 0
  let hi = indexes.length - 1
  let found = indexes.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if ((indexes[mid] ?? 0) >= message) {
      found = mid
      hi = mid - 1
    } else lo = mid + 1
  }
  return found
}

const finiteOrNull = (x: number | undefined): number | null =>
  x !== undefined && Number.isFinite(x) ? x : null

/** Turn the transferred typed arrays into chart rows; NaN (no reported usage) becomes null. */
export function timelinePoints(
  replay: ReplaySeries,
  upstream: readonly WireUpstreamMarker[] = [],
  extras: TimelineExtras = {},
): TimelinePoint[] {
  const flagged = new Set(extras.flagged ?? [])
  const steps = new Map((extras.steps ?? []).map((s) => [s.fromIndex, s.prefixTokens]))
  const byCall = new Map<number, WireUpstreamMarker[]>()
  for (const marker of upstream) {
    const at = callOfMessage(replay.index, marker.beforeIndex)
    if (at < 0) continue
    const list = byCall.get(at) ?? []
    list.push(marker)
    byCall.set(at, list)
  }
  const rows: TimelinePoint[] = []
  for (let i = 0; i < replay.index.length; i++) {
    const reported = replay.reported[i] ?? Number.NaN
    rows.push({
      call: i + 1,
      index: replay.index[i] ?? 0,
      before: replay.before[i] ?? 0,
      after: replay.after[i] ?? 0,
      reported: Number.isFinite(reported) ? reported : null,
      fired: replay.fired[i] ?? [],
      upstream: byCall.get(i) ?? [],
      flagged: flagged.has(replay.index[i] ?? -1),
      step: steps.get(replay.index[i] ?? -1) ?? null,
      now: false,
      costBefore: finiteOrNull(replay.costBefore?.[i]),
      costAfter: finiteOrNull(replay.costAfter?.[i]),
      rewrite: replay.rewrites?.[i] ?? 0,
    })
  }
  if (extras.now && rows.length > 0) {
    rows.push({
      call: rows.length + 1,
      index: extras.now.index,
      before: extras.now.before,
      after: extras.now.after,
      reported: null,
      fired: [],
      upstream: [],
      flagged: false,
      step: null,
      now: true,
      costBefore: null,
      costAfter: null,
      rewrite: 0,
    })
  }
  return rows
}

/** Facts the caption and the accessible description state in words. */
export interface TimelineFacts {
  /** Model calls of the log (the "now" point is not one). */
  readonly calls: number
  readonly flaggedCalls: number
  readonly firedCalls: number
  readonly reportedCalls: number
  readonly peakBefore: number
  readonly peakAfter: number
  readonly overBefore: number
  readonly overAfter: number
}

export function timelineFacts(points: readonly TimelinePoint[], usable: number): TimelineFacts {
  let firedCalls = 0
  let reportedCalls = 0
  let peakBefore = 0
  let peakAfter = 0
  let overBefore = 0
  let overAfter = 0
  let calls = 0
  let flaggedCalls = 0
  for (const p of points) {
    if (p.now) continue
    calls++
    if (p.flagged) flaggedCalls++
    if (p.fired.length > 0) firedCalls++
    if (p.reported !== null) reportedCalls++
    peakBefore = Math.max(peakBefore, p.before)
    peakAfter = Math.max(peakAfter, p.after)
    if (p.before > usable) overBefore++
    if (p.after > usable) overAfter++
  }
  return {
    calls,
    flaggedCalls,
    firedCalls,
    reportedCalls,
    peakBefore,
    peakAfter,
    overBefore,
    overAfter,
  }
}

/**
 * The messages a brush over calls `start..end` (indexes into the points) covers: everything that
 * arrived over those calls, from the message after the previous call's to the end call's own.
 */
export function brushToMessages(
  points: readonly TimelinePoint[],
  start: number,
  end: number,
): MessageRange | null {
  const last = points.length - 1
  if (last < 0) return null
  const s = Math.max(0, Math.min(start, end))
  const e = Math.min(last, Math.max(start, end))
  if (s === 0 && e === last) return null // the whole range: no filter
  const from = s === 0 ? 0 : (points[s - 1]?.index ?? -1) + 1
  const to = points[e]?.index ?? 0
  return { from, to }
}

/** The inverse, for drawing the store's brush back on the chart: calls whose messages it covers. */
export function messagesToBrush(
  points: readonly TimelinePoint[],
  range: MessageRange | null,
): { readonly start: number; readonly end: number } {
  const last = Math.max(0, points.length - 1)
  if (!range || points.length === 0) return { start: 0, end: last }
  let start = points.findIndex((p) => p.index >= range.from)
  if (start < 0) start = last
  let end = start
  while (end < last && (points[end + 1]?.index ?? Infinity) <= range.to) end++
  return { start, end }
}

/** A one-line tooltip for an upstream compaction marker. */
export function describeUpstream(
  marker: WireUpstreamMarker,
  format: (n: number) => string,
): string {
  const parts = [`upstream compaction (${marker.origin})`]
  if (marker.trigger) parts.push(`trigger: ${marker.trigger}`)
  if (marker.preTokens !== undefined) parts.push(`${format(marker.preTokens)} tokens before`)
  parts.push(`before message #${format(marker.beforeIndex)}`)
  return parts.join(' · ')
}

/** Most points the chart draws; beyond it the series is thinned (SVG paths of 5,000 points are slow). */
export const MAX_CHART_POINTS = 800

/**
 * Thin a long series for drawing without losing its shape: per bucket of calls keep the first
 * and last call, the lowest and highest compacted context (the sawtooth's troughs and peaks) and
 * the highest original context, plus every call with an upstream compaction and the first call of
 * the bucket where a strategy fired. Points keep their `call`, so the x axis stays true.
 */
export function thinPoints(
  points: readonly TimelinePoint[],
  max: number = MAX_CHART_POINTS,
): readonly TimelinePoint[] {
  if (points.length <= max) return points
  // Up to 6 points per bucket survive, so buckets are sized for max/6 of them.
  const buckets = Math.max(1, Math.floor(max / 6))
  const size = Math.ceil(points.length / buckets)
  const keep = new Set<number>()
  for (let start = 0; start < points.length; start += size) {
    const end = Math.min(points.length, start + size)
    let lo = start
    let hi = start
    let top = start
    let fired = -1
    for (let i = start; i < end; i++) {
      const p = points[i] as TimelinePoint
      if (p.after < (points[lo] as TimelinePoint).after) lo = i
      if (p.after > (points[hi] as TimelinePoint).after) hi = i
      if (p.before > (points[top] as TimelinePoint).before) top = i
      if (fired < 0 && p.fired.length > 0) fired = i
      if (p.upstream.length > 0 || p.flagged || p.step !== null || p.now) keep.add(i)
    }
    for (const i of [start, end - 1, lo, hi, top, fired]) if (i >= 0) keep.add(i)
  }
  return [...keep].sort((a, b) => a - b).map((i) => points[i] as TimelinePoint)
}
