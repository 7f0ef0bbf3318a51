/**
 * The values a sweep tries: a default range around the current value, and evenly spaced values
 * between two ends (whole numbers for counts, two decimals for fractions). Pure.
 */
import type { NumericParam } from './params.ts'

export interface SweepRange {
  readonly from: number
  readonly to: number
  readonly steps: number
}

export const DEFAULT_STEPS = 12
export const MIN_STEPS = 2
// Enough for a fine curve over a wide range; each point is one compaction in the worker.
export const MAX_STEPS = 200

/** Two significant digits: 183,750 → 180,000, so range ends read as round numbers. */
function round2(value: number): number {
  if (value === 0) return 0
  const scale = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1)
  return Math.round(value / scale) * scale
}

const clamp = (value: number, min: number, max: number | null) =>
  Math.max(min, max === null ? value : Math.min(max, value))

/**
 * A range that brackets the current value: ±0.3 for fractions of the window, a quarter to twice
 * the value otherwise (0–10 when it is 0), within the parameter's bounds.
 */
export function defaultRange(p: NumericParam): SweepRange {
  if (p.max === 1) {
    const from = clamp(Number((p.value - 0.3).toFixed(2)), 0.05, 1)
    const to = clamp(Number((p.value + 0.3).toFixed(2)), 0.05, 1)
    return { from, to, steps: DEFAULT_STEPS }
  }
  if (p.value === 0) return { from: 0, to: 10, steps: 11 }
  if (!p.integer) {
    const from = Math.max(p.min, Number((p.value / 4).toPrecision(2)))
    return { from, to: Number((p.value * 2).toPrecision(2)), steps: DEFAULT_STEPS }
  }
  const from = Math.max(p.min, Math.round(round2(p.value / 4)))
  const to = Math.max(from + 1, Math.round(round2(p.value * 2)))
  // Small counts (keep 3): one point per whole number instead of repeated values.
  return { from, to, steps: Math.max(MIN_STEPS, Math.min(DEFAULT_STEPS, to - from + 1)) }
}

/**
 * `steps` evenly spaced values from `from` to `to` (both included, either order). Counts are
 * rounded to whole numbers and repeats dropped, so a narrow integer range yields fewer points.
 */
export function rangeValues(range: SweepRange, integer: boolean): number[] {
  const { from, to } = range
  if (!Number.isFinite(from) || !Number.isFinite(to)) return []
  const steps = Math.round(clamp(range.steps, MIN_STEPS, MAX_STEPS))
  const out: number[] = []
  for (let i = 0; i < steps; i++) {
    const raw = from + ((to - from) * i) / (steps - 1)
    const value = integer ? Math.round(raw) : Number(raw.toFixed(4))
    if (out[out.length - 1] !== value) out.push(value)
  }
  return out
}
