import { mapItems } from '../arrays.ts'

/**
 * A small, robust model of what the provider counted for each call:
 *
 *   estimate(call) = prefix(call) + scale × visible(call)
 *
 * `visible` is our count of what the log shows the call received; `prefix` is what the log does
 * not show (system prompt, tool schemas, memory files) — one figure per context kind (main agent,
 * sub-agents), which may step up or down inside a session when tools or instructions change; and
 * `scale` converts our tokenizer's counts into the provider's (fixed at 1 where we ship the
 * provider's tokenizer). Fitted with medians, so a cumulative, stale or zero figure cannot pull it:
 * such calls are dropped and counted.
 */

export interface FitPoint {
  /** Position of the call in the session (0-based, over all calls). */
  readonly call: number
  /** Context kind: 0 for the main agent, 1 for sub-agents (they share a system prompt shape). */
  readonly kind: number
  /** The context (thread) the call belongs to: deltas are taken within one thread only. */
  readonly thread: number
  /** An upstream compaction restarted the context right before this call. */
  readonly restarted: boolean
  readonly visible: number
  readonly reported: number
}

export interface PrefixStep {
  /** The step applies from this call on (session position). */
  readonly fromCall: number
  readonly kind: number
  /** Hidden prefix from this call on. */
  readonly prefixTokens: number
}

export interface FitOptions {
  /** Fixed scale (we ship the provider's tokenizer), or undefined to fit one. */
  readonly fixedScale?: number
  /** Scale used when there are too few calls to fit one. */
  readonly defaultScale: number
  /** Most prefix changes looked for per context kind. */
  readonly maxSteps?: number
}

export interface FitResult {
  readonly scale: number
  readonly scaleFitted: boolean
  /** Hidden prefix at the first call of each context kind (index = kind), NaN when unseen. */
  readonly prefixByKind: readonly number[]
  /** Changes of the hidden prefix inside the session, in call order. */
  readonly steps: readonly PrefixStep[]
  /** Calls used by the fit. */
  readonly used: readonly number[]
  /** Calls left out as outliers, with why. */
  readonly outliers: readonly { readonly call: number; readonly why: string }[]
}

const median = (values: readonly number[]): number => {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** Minimum calls for a scale of its own (below it the family default is used). */
const MIN_CALLS_FOR_SCALE = 4
/** Consecutive calls whose visible size grew less than this say little about the slope. */
const MIN_DELTA = 100

/**
 * Provider tokens per token of ours, from consecutive calls of one thread: between two calls the
 * hidden prefix is (almost always) the same, so the growth of the reported figure over the growth
 * of what the log shows is the tokenizer ratio. A weighted median (weights: our growth) ignores the
 * few steps where something unlogged came or went.
 */
function deltaSlope(points: readonly FitPoint[]): number {
  const byThread = new Map<number, FitPoint[]>()
  // Appended in place: copying the series per point was quadratic in the calls of a thread
  // (1 s of the 200 MB CLI run).
  for (const p of points) {
    const series = byThread.get(p.thread)
    if (series) series.push(p)
    else byThread.set(p.thread, [p])
  }
  const pairs: { ratio: number; weight: number }[] = []
  for (const series of byThread.values()) {
    series.sort((a, b) => a.call - b.call)
    for (let i = 1; i < series.length; i++) {
      const a = series[i - 1] as FitPoint
      const b = series[i] as FitPoint
      const dv = b.visible - a.visible
      if (b.restarted || dv < MIN_DELTA) continue
      pairs.push({ ratio: (b.reported - a.reported) / dv, weight: dv })
    }
  }
  return weightedMedian(pairs)
}

function weightedMedian(pairs: { ratio: number; weight: number }[]): number {
  if (pairs.length === 0) return NaN
  pairs.sort((a, b) => a.ratio - b.ratio)
  const half = pairs.reduce((t, p) => t + p.weight, 0) / 2
  let run = 0
  for (const p of pairs) {
    run += p.weight
    if (run >= half) return p.ratio
  }
  return (pairs[pairs.length - 1] as { ratio: number }).ratio
}

/** Fit the model on the given points (already validated: finite, positive). */
export function fitPrefixScale(points: readonly FitPoint[], options: FitOptions): FitResult {
  const maxSteps = options.maxSteps ?? 16
  let active = [...points]
  const outliers: { call: number; why: string }[] = []
  let scale = options.fixedScale ?? options.defaultScale
  let scaleFitted = false
  let steps: PrefixStep[] = []
  let prefixByKind: number[] = []

  const segmentOf = (p: FitPoint): number => {
    let s = 0
    for (const step of steps) if (step.kind === p.kind && p.call >= step.fromCall) s++
    return s
  }
  const prefixAt = (p: FitPoint): number => {
    let prefix = prefixByKind[p.kind] ?? 0
    for (const step of steps)
      if (step.kind === p.kind && p.call >= step.fromCall) prefix = step.prefixTokens
    return prefix
  }

  for (let round = 0; round < 3; round++) {
    if (options.fixedScale === undefined && active.length >= MIN_CALLS_FOR_SCALE) {
      const s = deltaSlope(active)
      // A slope far from any tokenizer ratio means the calls do not line up (too few distinct
      // sizes, or structure we do not model): keep the default rather than a wild factor.
      if (Number.isFinite(s) && s > 0.5 && s < 2) {
        scale = s
        scaleFitted = true
      }
    }
    prefixByKind = []
    steps = findSteps(active, scale, maxSteps)
    const kinds = new Set(active.map((p) => p.kind))
    for (const kind of kinds) {
      const first = active.filter((p) => p.kind === kind && segmentOf(p) === 0)
      prefixByKind[kind] = Math.max(
        0,
        median(mapItems(first, (p) => p.reported - scale * p.visible)),
      )
    }
    // Outliers: far from the model both relatively and against the spread of the residuals.
    const resid = mapItems(active, (p) => p.reported - (prefixAt(p) + scale * p.visible))
    const mad = median(mapItems(resid, (r) => Math.abs(r))) || 1
    const keep: FitPoint[] = []
    active.forEach((p, i) => {
      const r = resid[i] as number
      if (Math.abs(r) > 8 * mad && Math.abs(r) > 0.25 * p.reported && active.length > 3) {
        outliers.push({
          call: p.call,
          why:
            r > 0
              ? `reported ${p.reported} is ${Math.round(r)} above the fit (cumulative or stale figure?)`
              : `reported ${p.reported} is ${Math.round(-r)} below the fit (partial or zero figure?)`,
        })
      } else keep.push(p)
    })
    if (keep.length === active.length) break
    active = keep
  }
  return {
    scale,
    scaleFitted,
    prefixByKind,
    steps,
    used: active.map((p) => p.call),
    outliers,
  }
}

/**
 * Changes of the hidden prefix, found from the residuals (reported − scale × visible) by binary
 * segmentation: a split is kept when both sides have a few calls and their medians differ by more
 * than 1.5 % of the reported size (and 500 tokens) and the split removes a fifth of the spread
 * around the medians — a jump of the hidden part, not the drift of a long tool loop. Returns the
 * prefix of every segment after the first as a step.
 */
function findSteps(points: readonly FitPoint[], scale: number, maxSteps: number): PrefixStep[] {
  const steps: PrefixStep[] = []
  const kinds = [...new Set(points.map((p) => p.kind))]
  for (const kind of kinds) {
    const series = points.filter((p) => p.kind === kind).sort((a, b) => a.call - b.call)
    const resid = mapItems(series, (p) => p.reported - scale * p.visible)
    const cuts: number[] = []
    const deviation = (from: number, to: number): { median: number; cost: number } => {
      const part = resid.slice(from, to)
      const m = median(part)
      return { median: m, cost: part.reduce((t, r) => t + Math.abs(r - m), 0) }
    }
    // Prefix sums: the squared-error cost of any segment in O(1), so every cut can be tried.
    const sum = new Float64Array(resid.length + 1)
    const sq = new Float64Array(resid.length + 1)
    resid.forEach((r, i) => {
      sum[i + 1] = (sum[i] as number) + r
      sq[i + 1] = (sq[i] as number) + r * r
    })
    const sse = (from: number, to: number): number => {
      const n = to - from
      const s1 = (sum[to] as number) - (sum[from] as number)
      return (sq[to] as number) - (sq[from] as number) - (s1 * s1) / n
    }
    const split = (from: number, to: number, depth: number): void => {
      if (depth >= MAX_DEPTH || cuts.length >= maxSteps || to - from < 2 * MIN_SEGMENT) return
      // The cut that best separates two levels (least squares), judged below with medians.
      let best = -1
      let bestSse = Infinity
      for (let c = from + MIN_SEGMENT; c <= to - MIN_SEGMENT; c++) {
        const total = sse(from, c) + sse(c, to)
        if (total < bestSse) {
          bestSse = total
          best = c
        }
      }
      if (best < 0) return
      const left = deviation(from, best)
      const right = deviation(best, to)
      const bestCost = left.cost + right.cost
      const shift = Math.abs(left.median - right.median)
      const base = deviation(from, to).cost
      const typical = median(mapItems(series.slice(from, to), (p) => p.reported))
      if (shift < Math.max(500, 0.015 * typical) || bestCost > 0.8 * base) return
      cuts.push(best)
      split(from, best, depth + 1)
      split(best, to, depth + 1)
    }
    split(0, series.length, 0)
    cuts.sort((a, b) => a - b)
    const bounds = [0, ...cuts, series.length]
    for (let s = 1; s < bounds.length - 1; s++) {
      const seg = resid.slice(bounds[s], bounds[s + 1])
      steps.push({
        fromCall: (series[bounds[s] as number] as FitPoint).call,
        kind,
        prefixTokens: Math.max(0, median(seg)),
      })
    }
  }
  return steps.sort((a, b) => a.fromCall - b.fromCall)
}

/** Fewest calls on either side of a prefix change. */
const MIN_SEGMENT = 3
const MAX_DEPTH = 6
