import type { RunSummary } from '../../../store/index.ts'

export type ReplaySeries = NonNullable<RunSummary['replay']>

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
}

/** Turn the transferred typed arrays into chart rows; NaN (no reported usage) becomes null. */
export function timelinePoints(replay: ReplaySeries): TimelinePoint[] {
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
    })
  }
  return rows
}

/** Facts the caption and the accessible description state in words. */
export interface TimelineFacts {
  readonly calls: number
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
  for (const p of points) {
    if (p.fired.length > 0) firedCalls++
    if (p.reported !== null) reportedCalls++
    peakBefore = Math.max(peakBefore, p.before)
    peakAfter = Math.max(peakAfter, p.after)
    if (p.before > usable) overBefore++
    if (p.after > usable) overAfter++
  }
  return {
    calls: points.length,
    firedCalls,
    reportedCalls,
    peakBefore,
    peakAfter,
    overBefore,
    overAfter,
  }
}
