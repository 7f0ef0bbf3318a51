import { aggregate } from './aggregate.ts'
import { compareNames } from './shard.ts'
import {
  FLEET_PARTIAL_KIND,
  FLEET_REPORT_KIND,
  FLEET_VERSION,
  type FleetConfigRef,
  type FleetFailure,
  type FleetPartial,
  type FleetReport,
  type FleetRow,
} from './types.ts'

const byNameItem = (
  a: { name: string; item?: number },
  b: { name: string; item?: number },
): number => compareNames(a.name, b.name) || (a.item ?? -1) - (b.item ?? -1)

/** Rows in report order (name, then item): completion order never shows in a report. */
export function sortRows(rows: readonly FleetRow[]): FleetRow[] {
  return [...rows].sort(byNameItem)
}

export function sortFailures(failures: readonly FleetFailure[]): FleetFailure[] {
  return [...failures].sort(byNameItem)
}

/** The report of one run (or of a merge): rows and failures sorted, aggregates over the rows. */
export function buildFleetReport(
  config: FleetConfigRef,
  files: number,
  rows: readonly FleetRow[],
  failures: readonly FleetFailure[],
): FleetReport {
  const sorted = sortRows(rows)
  return {
    kind: FLEET_REPORT_KIND,
    version: FLEET_VERSION,
    config,
    files,
    rows: sorted,
    failures: sortFailures(failures),
    aggregates: aggregate(sorted, failures.length),
  }
}

export function buildFleetPartial(
  config: FleetConfigRef,
  shard: { index: number; count: number },
  files: number,
  rows: readonly FleetRow[],
  failures: readonly FleetFailure[],
): FleetPartial {
  return {
    kind: FLEET_PARTIAL_KIND,
    version: FLEET_VERSION,
    config,
    shard,
    files,
    rows: sortRows(rows),
    failures: sortFailures(failures),
  }
}

export type MergeOutcome =
  | { readonly ok: true; readonly report: FleetReport }
  | { readonly ok: false; readonly message: string }

/**
 * Partials → the report one run over every file gives. Refuses partials of different configs or
 * shard counts, a shard given twice, and a missing shard (each says which).
 */
export function mergePartials(partials: readonly FleetPartial[]): MergeOutcome {
  const first = partials[0]
  if (!first) return { ok: false, message: 'no partial reports given' }
  const seen = new Set<number>()
  for (const p of partials) {
    if (p.config.digest !== first.config.digest)
      return {
        ok: false,
        message: `shard ${p.shard.index}/${p.shard.count} ran config ${p.config.name} (${p.config.digest}), shard ${first.shard.index}/${first.shard.count} ran ${first.config.name} (${first.config.digest})`,
      }
    if (p.shard.count !== first.shard.count)
      return {
        ok: false,
        message: `shards of different splits: ${p.shard.index}/${p.shard.count} and ${first.shard.index}/${first.shard.count}`,
      }
    if (seen.has(p.shard.index))
      return { ok: false, message: `shard ${p.shard.index}/${p.shard.count} given twice` }
    seen.add(p.shard.index)
  }
  const missing: number[] = []
  for (let i = 1; i <= first.shard.count; i++) if (!seen.has(i)) missing.push(i)
  if (missing.length > 0)
    return {
      ok: false,
      message: `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')}`,
    }
  const rows: FleetRow[] = []
  const failures: FleetFailure[] = []
  let files = 0
  for (const p of partials) {
    for (const r of p.rows) rows.push(r)
    for (const f of p.failures) failures.push(f)
    files += p.files
  }
  return { ok: true, report: buildFleetReport(first.config, files, rows, failures) }
}

/** Is this parsed JSON a partial report of ours? (shape check of the fields merge reads) */
export function isFleetPartial(value: unknown): value is FleetPartial {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  const shard = v.shard as Record<string, unknown> | undefined
  const config = v.config as Record<string, unknown> | undefined
  return (
    v.kind === FLEET_PARTIAL_KIND &&
    v.version === FLEET_VERSION &&
    typeof v.files === 'number' &&
    Array.isArray(v.rows) &&
    Array.isArray(v.failures) &&
    !!shard &&
    typeof shard.index === 'number' &&
    typeof shard.count === 'number' &&
    !!config &&
    typeof config.digest === 'string' &&
    typeof config.name === 'string'
  )
}
