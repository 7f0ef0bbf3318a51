/** Sweep points and comparison rows from study results: pure, read from the rows' own figures. */
import { aggregate } from '../../../fleet/aggregate.ts'
import type { FleetRow } from '../../../fleet/types.ts'
import type { VariantResult } from './studyStore.ts'

export interface SweepPoint {
  readonly label: string
  readonly value: number | null
  readonly conversations: number
  /** Saved share of the last call, median and p90 over conversations (0–100). */
  readonly median: number | null
  readonly p90: number | null
  readonly costAfter: number | null
  readonly usedLater: number
  readonly violations: number
  readonly invalid: string | null
}

const pct = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 10)

export function sweepPoints(results: readonly VariantResult[]): SweepPoint[] {
  return results.map((r) => {
    const a = aggregate(r.rows, r.failed)
    return {
      label: r.variant.label,
      value: r.variant.value ?? null,
      conversations: a.conversations,
      median: pct(a.savedFraction.median),
      p90: pct(a.savedFraction.p90),
      costAfter: a.costAfter.count > 0 ? a.costAfter.total : null,
      usedLater: a.usedLater,
      violations: a.invariantsViolated,
      invalid: r.invalid,
    }
  })
}

export interface CompareRow {
  readonly id: string
  readonly name: string
  readonly a: FleetRow
  readonly b: FleetRow
  /** Saved share B − A, in points (−100…100). */
  readonly delta: number
}

const idOf = (r: FleetRow) => `${r.name}#${r.item}`

/** Conversations both configs evaluated, those where the saved share differs most first. */
export function compareRows(
  a: readonly FleetRow[],
  b: readonly FleetRow[],
  limit = 50,
): CompareRow[] {
  const byId = new Map(b.map((r) => [idOf(r), r]))
  const out: CompareRow[] = []
  for (const ra of a) {
    const rb = byId.get(idOf(ra))
    if (!rb) continue
    const delta =
      Math.round((rb.tokens.last.savedFraction - ra.tokens.last.savedFraction) * 1000) / 10
    out.push({ id: idOf(ra), name: ra.name, a: ra, b: rb, delta })
  }
  out.sort(
    (x, y) =>
      Math.abs(y.delta) - Math.abs(x.delta) ||
      Math.abs(y.b.usedLater - y.a.usedLater) - Math.abs(x.b.usedLater - x.a.usedLater) ||
      (x.id < y.id ? -1 : 1),
  )
  return out.slice(0, limit)
}
