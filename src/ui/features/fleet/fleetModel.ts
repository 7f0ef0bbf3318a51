/**
 * The fleet view's rows without React: one line per conversation (a file not done yet, or failed,
 * is one line of its own), sorting, and the chart series. Figures are read from the rows the
 * workers sent (src/fleet); nothing here recomputes them.
 */
import type { FleetRow } from '../../../fleet/types.ts'

export type EntryStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled'

export interface FleetEntry {
  readonly key: string
  readonly name: string
  readonly status: EntryStatus
  /** Replayed calls done / total while running. */
  readonly progress: number | null
  /** The last run's rows: kept (dimmed) while a re-run is queued, replaced when it finishes. */
  readonly rows: readonly FleetRow[]
  readonly failure: string | null
}

export interface FleetLine {
  /** Unique: `key#item` for a conversation, `key` for a file without rows. */
  readonly id: string
  readonly key: string
  /** The item of a multi-item file (null: the whole file). */
  readonly item: number | null
  readonly name: string
  readonly status: EntryStatus
  readonly progress: number | null
  readonly format: string
  readonly model: string
  /** Strategy ids that fired, for `strategy:` filters. */
  readonly strategies: string
  readonly row: FleetRow | null
  readonly failure: string | null
  /** Figures from an earlier config while this file re-runs. */
  readonly stale: boolean
}

/**
 * An entry's lines, cached by the entry object: the store replaces only the entries that changed,
 * so unchanged lines keep their identity and their table rows skip re-rendering.
 */
const linesCache = new WeakMap<FleetEntry, readonly FleetLine[]>()

export function linesOf(entries: readonly FleetEntry[]): FleetLine[] {
  const out: FleetLine[] = []
  for (const e of entries) {
    let lines = linesCache.get(e)
    if (!lines) {
      lines = entryLines(e)
      linesCache.set(e, lines)
    }
    for (const l of lines) out.push(l)
  }
  return out
}

function entryLines(e: FleetEntry): FleetLine[] {
  const out: FleetLine[] = []
  {
    const stale = e.status === 'queued' || e.status === 'running'
    if (e.rows.length === 0 || e.status === 'failed') {
      out.push({
        id: e.key,
        key: e.key,
        item: null,
        name: e.name,
        status: e.status,
        progress: e.progress,
        format: '',
        model: '',
        strategies: '',
        row: null,
        failure: e.failure,
        stale: false,
      })
      return out
    }
    for (const r of e.rows)
      out.push({
        id: `${e.key}#${r.item}`,
        key: e.key,
        item: r.itemName !== null ? r.item : null,
        // The item first: items of one file share a long file name, which would hide what differs.
        name: r.itemName !== null ? `${r.itemName} — ${e.name}` : e.name,
        status: e.status,
        progress: e.progress,
        format: r.format,
        model: r.model ?? '',
        strategies: Object.keys(r.fired).join(' '),
        row: r,
        failure: null,
        stale,
      })
  }
  return out
}

export const SORT_KEYS = [
  'name',
  'format',
  'calls',
  'before',
  'after',
  'saved',
  'peak',
  'cost',
  'costSaved',
  'first',
  'risk',
] as const
export type SortKey = (typeof SORT_KEYS)[number]
export interface Sort {
  readonly key: SortKey
  readonly desc: boolean
}

function sortValue(line: FleetLine, key: SortKey): string | number | null {
  const r = line.row
  switch (key) {
    case 'name':
      return line.name
    case 'format':
      return line.format
    case 'calls':
      return r?.calls ?? null
    case 'before':
      return r?.tokens.last.before ?? null
    case 'after':
      return r?.tokens.last.after ?? null
    case 'saved':
      return r ? r.tokens.last.savedFraction : null
    case 'peak':
      return r?.tokens.peak.before ?? null
    case 'cost':
      return r?.cost.before ?? null
    case 'costSaved':
      return r?.cost.saved ?? null
    case 'first':
      return r?.firstCompactionCall ?? null
    case 'risk':
      return r?.usedLater ?? null
    default: {
      const never: never = key
      return never
    }
  }
}

/** Sorted copy; lines without the figure go last whatever the direction, ties by name. */
export function sortLines(lines: readonly FleetLine[], sort: Sort): FleetLine[] {
  const keyed = lines.map((line) => ({ line, v: sortValue(line, sort.key) }))
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v !== b.v) return a.v === null ? 1 : -1
    } else if (a.v !== b.v) {
      const c = a.v < b.v ? -1 : 1
      return sort.desc ? -c : c
    }
    return a.line.id < b.line.id ? -1 : a.line.id > b.line.id ? 1 : 0
  })
  return keyed.map((k) => k.line)
}

export interface Bin {
  /** The bin's whole range, for the tooltip (`100–199`). */
  readonly label: string
  /**
   * The axis label: short, so neighbouring labels never meet. A range such as `100–199` is
   * ~36 px at the charts' 10 px font, and at 1280×720 each chart has ~22 px per bar: two
   * ranges a tick apart ran into each other (issue 16). The tooltip still shows `label`.
   */
  readonly tick: string
  readonly from: number
  readonly count: number
}

/** Histogram of saved fraction, ten 10 % bins (100 % lands in the last). */
export function savingsHistogram(rows: readonly FleetRow[]): Bin[] {
  const counts = new Array<number>(10).fill(0)
  for (const r of rows) {
    const k = Math.min(9, Math.max(0, Math.floor(r.tokens.last.savedFraction * 10)))
    counts[k] = (counts[k] ?? 0) + 1
  }
  return counts.map((count, k) => ({
    label: `${k * 10}–${k * 10 + 10} %`,
    tick: `${k * 10}–${k * 10 + 10}`,
    from: k * 10,
    count,
  }))
}

/** Calls until the config first changed something: bins of doubling width, plus "never". */
export function firstCompactionHistogram(rows: readonly FleetRow[]): Bin[] {
  const edges = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
  const counts = new Array<number>(edges.length + 1).fill(0)
  for (const r of rows) {
    const f = r.firstCompactionCall
    let k = edges.length
    if (f !== null) {
      k = edges.length - 1
      for (let i = 0; i < edges.length - 1; i++)
        if (f < (edges[i + 1] as number)) {
          k = i
          break
        }
    }
    counts[k] = (counts[k] ?? 0) + 1
  }
  return counts.map((count, k) => {
    const lo = edges[k] as number
    const hi = (edges[k + 1] as number) - 1
    return {
      label: k === edges.length ? 'never' : k === edges.length - 1 ? `≥ ${lo}` : rangeLabel(lo, hi),
      // The bin's first value, as a log-binned histogram's axis usually reads (1, 5, 20, 100…).
      tick: k === edges.length ? 'never' : k === edges.length - 1 ? `${lo / 1000}k+` : `${lo}`,
      from: k,
      count,
    }
  })
}

/** `1` for a one-value bin (was `1–1`), else `lo–hi`. */
function rangeLabel(lo: number, hi: number): string {
  return lo === hi ? `${lo}` : `${lo}–${hi}`
}

export interface ScatterPoint {
  readonly id: string
  readonly size: number
  readonly saved: number
}

/** Size (peak context, uncompacted) against saved %: one point per spot, at most `limit` (evenly sampled). */
export function sizeVsSavings(lines: readonly FleetLine[], limit = 2000): ScatterPoint[] {
  // A log axis has no place for 0: conversations with no replayed call are left out. Points
  // that land on the same spot (1/60 of a decade, 1 %: under a dot's 3 px radius at the charts'
  // widths) are drawn once: recharts renders a component per point in the end-of-run commit, and
  // a fleet's many conversations that saved nothing sit on one line at 0 %.
  const spots = new Set<number>()
  const withRows: FleetLine[] = []
  for (const l of lines) {
    const r = l.row
    if (r === null || !(r.tokens.peak.before > 0)) continue
    const spot =
      Math.round(Math.log10(r.tokens.peak.before) * 60) * 1000 +
      Math.round(r.tokens.last.savedFraction * 100)
    if (spots.has(spot)) continue
    spots.add(spot)
    withRows.push(l)
  }
  const step = Math.max(1, withRows.length / limit)
  const out: ScatterPoint[] = []
  for (let i = 0; i < withRows.length; i += step) {
    const l = withRows[Math.floor(i)] as FleetLine
    const r = l.row as FleetRow
    out.push({
      id: l.id,
      size: r.tokens.peak.before,
      saved: Math.round(r.tokens.last.savedFraction * 1000) / 10,
    })
  }
  return out
}
