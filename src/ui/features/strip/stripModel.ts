/** Pure layout of the context strip: groups → segments on one token scale (no React). */
import type { GroupStatus, RunView } from '../../../store/index.ts'

/** Width of the strip's coordinate system (SVG user units); one unit ≈ one pixel at 1000px. */
export const STRIP_UNITS = 1000

export type SegmentKind = string

export interface StripSegment {
  /** Index of the first group (−1 for the extra segments that belong to no group). */
  readonly index: number
  readonly id: string
  readonly kind: SegmentKind
  readonly status: GroupStatus | 'merged' | 'extra'
  readonly tokens: number
  /** In strip units. */
  readonly x: number
  readonly width: number
  /** How many groups this segment stands for (> 1 when tiny neighbours were merged). */
  readonly count: number
  /** Index of the last group it stands for (= `index` unless merged; −1 for extra segments). */
  readonly last: number
}

export interface StripBand {
  readonly segments: StripSegment[]
  /** Tokens drawn in the band. */
  readonly total: number
  /** Groups left out of this band (excluded ones, after). */
  readonly hidden: number
}

/** Tokens that belong to no group: tool definitions, framing and, after a run, inserted summaries. */
export interface Extras {
  readonly overhead: number
  readonly summaries: number
}

function sum(values: Float64Array): number {
  let total = 0
  for (const v of values) total += v
  return total
}

/**
 * Before: tokens outside groups are overhead (tools, framing). After: the same overhead is assumed
 * to stay, and anything beyond it is counted as inserted summaries: an estimate, clamped at 0.
 */
export function extras(summary: RunView): { before: Extras; after: Extras } {
  const overhead = Math.max(0, summary.tokens.before - sum(summary.groups.tokensBefore))
  const extraAfter = Math.max(0, summary.tokens.after - sum(summary.groups.tokensAfter))
  const summaries = Math.max(0, extraAfter - overhead)
  return {
    before: { overhead, summaries: 0 },
    after: { overhead: extraAfter - summaries, summaries },
  }
}

/** Tokens one strip unit stands for: the widest of the window and both bands. */
export function stripScale(summary: RunView): number {
  const { window, before, after } = summary.tokens
  return Math.max(1, window, before, after) / STRIP_UNITS
}

interface Builder {
  segments: StripSegment[]
  x: number
  pending: StripSegment | null
}

function push(b: Builder, seg: Omit<StripSegment, 'x' | 'width' | 'last'>, scale: number): void {
  const width = seg.tokens / scale
  const tiny = width < 1 && seg.index >= 0
  if (tiny) {
    const p = b.pending
    b.pending = p
      ? {
          ...p,
          id: `${p.count + 1} small groups`,
          kind: 'merged',
          status: 'merged',
          tokens: p.tokens + seg.tokens,
          width: p.width + width,
          count: p.count + 1,
          last: seg.index,
        }
      : { ...seg, x: b.x, width, count: 1, last: seg.index }
    if (b.pending.width >= 1) flush(b)
    b.x += width
    return
  }
  flush(b)
  b.segments.push({ ...seg, x: b.x, width, last: seg.index })
  b.x += width
}

function flush(b: Builder): void {
  if (b.pending) b.segments.push(b.pending)
  b.pending = null
}

/** One band: groups in order at their tokens before (or after), tiny neighbours merged. */
export function buildBand(summary: RunView, side: 'before' | 'after', scale: number): StripBand {
  const { ids, kinds, status, tokensBefore, tokensAfter } = summary.groups
  const tokens = side === 'before' ? tokensBefore : tokensAfter
  const extra = extras(summary)[side]
  const b: Builder = { segments: [], x: 0, pending: null }
  let total = 0
  let hidden = 0
  for (let i = 0; i < ids.length; i++) {
    const st = status[i] as GroupStatus
    const t = tokens[i] as number
    if (side === 'after' && (st === 'excluded' || t <= 0)) {
      hidden++
      continue
    }
    total += t
    const seg = {
      index: i,
      id: ids[i] as string,
      kind: kinds[i] as string,
      status: st,
      tokens: t,
      count: 1,
    }
    push(b, seg, scale)
  }
  if (extra.summaries > 0) {
    push(
      b,
      {
        index: -1,
        id: 'inserted summaries',
        kind: 'summaries',
        status: 'extra',
        tokens: extra.summaries,
        count: 0,
      },
      scale,
    )
    total += extra.summaries
  }
  if (extra.overhead > 0) {
    push(
      b,
      {
        index: -1,
        id: 'tools & framing (no group)',
        kind: 'overhead',
        status: 'extra',
        tokens: extra.overhead,
        count: 0,
      },
      scale,
    )
    total += extra.overhead
  }
  flush(b)
  return { segments: b.segments, total, hidden }
}

/** A hover name: "g12 · tool_call · 1,234 tokens · stubbed". */
export function describeSegment(seg: StripSegment, format: (n: number) => string): string {
  const parts = [seg.id]
  if (seg.status !== 'merged' && seg.status !== 'extra') parts.push(seg.kind)
  parts.push(`${format(seg.tokens)} tokens`)
  if (seg.status !== 'extra')
    parts.push(seg.status === 'merged' ? 'merged for display' : seg.status)
  return parts.join(' · ')
}

const sameSegment = (a: StripSegment, b: StripSegment): boolean =>
  a.index === b.index &&
  a.id === b.id &&
  a.kind === b.kind &&
  a.status === b.status &&
  a.tokens === b.tokens &&
  a.x === b.x &&
  a.width === b.width &&
  a.count === b.count &&
  a.last === b.last

/**
 * `next` with every segment equal to one of `prev`'s (same key, same fields) replaced by that
 * object, and `prev` itself when nothing differs: the memoised segments of an edit that moved a
 * few groups then re-render only those (issue 14: 2 × ~1,000 SVG groups re-rendered per edit).
 */
export function reuseBand(next: StripBand, prev: StripBand | null): StripBand {
  if (!prev) return next
  const old = new Map(prev.segments.map((s) => [`${s.index}-${s.id}`, s]))
  let same = next.segments.length === prev.segments.length
  const segments = next.segments.map((s, i) => {
    const o = old.get(`${s.index}-${s.id}`)
    const kept = o && sameSegment(o, s) ? o : s
    if (kept !== prev.segments[i]) same = false
    return kept
  })
  if (same && next.total === prev.total && next.hidden === prev.hidden) return prev
  return { ...next, segments }
}

/** A `reuseBand` memory per band side (one per strip component). */
export function createBandCache(): (side: 'before' | 'after', band: StripBand) => StripBand {
  const last: { before: StripBand | null; after: StripBand | null } = { before: null, after: null }
  return (side, band) => (last[side] = reuseBand(band, last[side]))
}
