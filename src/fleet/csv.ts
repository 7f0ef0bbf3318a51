import { csvField } from '../export/reports.ts'
import type { FleetRow } from './types.ts'

/** The columns of `evaluate --csv`, one row per conversation. */
export const FLEET_CSV_COLUMNS = [
  'name',
  'item',
  'itemName',
  'format',
  'model',
  'messages',
  'calls',
  'tokensBefore',
  'tokensAfter',
  'saved',
  'savedFraction',
  'peakBefore',
  'peakAfter',
  'costBefore',
  'costAfter',
  'costSaved',
  'firstCompactionCall',
  'changes',
  'invariantsOk',
  'usedLater',
  'fired',
] as const

function cells(r: FleetRow): (string | number)[] {
  const fired = Object.entries(r.fired)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, n]) => `${id}:${n}`)
    .join(';')
  return [
    r.name,
    r.item,
    r.itemName ?? '',
    r.format,
    r.model ?? '',
    r.messages,
    r.calls,
    r.tokens.last.before,
    r.tokens.last.after,
    r.tokens.last.saved,
    r.tokens.last.savedFraction,
    r.tokens.peak.before,
    r.tokens.peak.after,
    r.cost.before ?? '',
    r.cost.after ?? '',
    r.cost.saved ?? '',
    r.firstCompactionCall ?? '',
    r.changes,
    r.invariantsOk ? 'true' : 'false',
    r.usedLater,
    fired,
  ]
}

/** RFC 4180 (CRLF), the same quoting as the decisions CSV. */
export function fleetCsv(rows: readonly FleetRow[]): string {
  const lines = [FLEET_CSV_COLUMNS.join(',')]
  for (const r of rows) lines.push(cells(r).map(csvField).join(','))
  return lines.join('\r\n') + '\r\n'
}
