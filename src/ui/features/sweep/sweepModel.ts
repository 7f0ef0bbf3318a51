/** Chart rows and captions for a sweep result (pure). */
import type { SweepPoint } from '../../../store/index.ts'

export interface ChartRow {
  readonly value: number
  /** Null where the config was invalid at this value: the lines break there. */
  readonly after: number | null
  readonly saved: number | null
  readonly violations: number | null
  /** USD per session under the config at this value (when the sweep was priced). */
  readonly cost: number | null
  /** Tokens removed that the agent used later (the risk beside `saved`). */
  readonly removedUsed: number | null
}

export function chartRows(points: readonly SweepPoint[]): ChartRow[] {
  return [...points]
    .sort((x, y) => x.value - y.value)
    .map((p) =>
      p.ok
        ? {
            value: p.value,
            after: p.after,
            saved: p.saved,
            violations: p.violations,
            cost: p.costAfter ?? null,
            removedUsed: p.risk.tokens,
          }
        : {
            value: p.value,
            after: null,
            saved: null,
            violations: null,
            cost: null,
            removedUsed: null,
          },
    )
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 })

/** 200000 → "200,000", 0.85 → "0.85". */
export function formatValue(value: number): string {
  return Number.isInteger(value) ? whole.format(value) : decimal.format(value)
}

export interface SweepFacts {
  readonly valid: number
  readonly invalid: number
  /** The valid point with the fewest tokens after and no failing invariant (null if none). */
  readonly best: SweepPoint | null
  readonly withViolations: number
}

export function sweepFacts(points: readonly SweepPoint[]): SweepFacts {
  let best: SweepPoint | null = null
  let valid = 0
  let withViolations = 0
  for (const p of points) {
    if (!p.ok) continue
    valid++
    if (p.violations > 0) withViolations++
    else if (!best || p.after < best.after) best = p
  }
  return { valid, invalid: points.length - valid, best, withViolations }
}
