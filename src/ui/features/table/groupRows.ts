/** Pure helpers for the grouped table: one row per group, filters and their counts (no React). */
import type {
  GroupStatus,
  MessageRange,
  RunSummary,
  TableChip,
  WireDecision,
} from '../../../store/index.ts'
import type { QueryRow } from './query.ts'

export interface GroupRow extends QueryRow {
  /** Why the group changed (or is protected); empty when no decision names it. */
  readonly reason: string
  /** Index of the group's first message (-1 for the top-level system prompt). */
  readonly firstMessage: number
  readonly messageCount: number
}

/** The status chips are the store's `TableChip`s (the chip lives in the view slice). */
export type GroupFilter = TableChip

export const GROUP_FILTERS: readonly { readonly id: GroupFilter; readonly label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'kept', label: 'Kept' },
  { id: 'excluded', label: 'Excluded' },
  { id: 'stubbed', label: 'Stubbed' },
  { id: 'changed', label: 'Changed' },
  { id: 'protected', label: 'Protected' },
]

const CHANGED: ReadonlySet<GroupStatus> = new Set(['excluded', 'stubbed', 'trimmed', 'summarised'])
const CHANGING_KINDS: ReadonlySet<WireDecision['kind']> = new Set([
  'exclude',
  'stub',
  'trim',
  'insert',
])

export function matchesFilter(status: GroupStatus, filter: GroupFilter): boolean {
  if (filter === 'all') return true
  if (filter === 'changed') return CHANGED.has(status)
  return status === filter
}

/**
 * The decision that explains each group: the first changing one (exclude/stub/trim/insert) wins,
 * otherwise the first `protected` one. Other kinds (skip, failed_open) never explain a row.
 */
export function decisionsByGroup(
  decisions: readonly WireDecision[],
): ReadonlyMap<string, WireDecision> {
  const map = new Map<string, WireDecision>()
  for (const d of decisions) {
    if (!d.groupId) continue
    const current = map.get(d.groupId)
    if (CHANGING_KINDS.has(d.kind)) {
      if (!current || !CHANGING_KINDS.has(current.kind)) map.set(d.groupId, d)
    } else if (d.kind === 'protected' && !current) {
      map.set(d.groupId, d)
    }
  }
  return map
}

/** Same values in every field: the older object can stand for the newer one. */
function sameRow(a: GroupRow, b: GroupRow): boolean {
  for (const key of Object.keys(b) as (keyof GroupRow)[]) if (a[key] !== b[key]) return false
  return true
}

/**
 * `buildRows` that keeps the previous run's row object for every group the new run left as it
 * was (issue 14): memoised table lines then skip them, and an edit that changes a few groups
 * re-renders a few lines. Returns the previous array itself when nothing changed.
 */
export function createRowCache(): (summary: RunSummary) => readonly GroupRow[] {
  let last: readonly GroupRow[] = []
  return (summary) => {
    const next = buildRows(summary)
    let changed = next.length !== last.length
    for (let i = 0; i < next.length; i++) {
      const old = last[i]
      const row = next[i]
      if (old && row && old.id === row.id && sameRow(old, row)) next[i] = old
      else changed = true
    }
    if (!changed) return last
    last = next
    return next
  }
}

export function buildRows(summary: RunSummary): GroupRow[] {
  const { ids, kinds, status, tokensBefore, tokensAfter } = summary.groups
  const { roles, tools, resources, turns, firstMessage, messageCounts } = summary.groups
  const byGroup = decisionsByGroup(summary.decisions)
  const rows: GroupRow[] = new Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? ''
    const d = byGroup.get(id)
    rows[i] = {
      index: i,
      id,
      kind: kinds[i] ?? '',
      before: tokensBefore[i] ?? 0,
      after: tokensAfter[i] ?? 0,
      status: status[i] ?? 'kept',
      reason: d?.reason ?? '',
      strategy: d?.strategy ?? '',
      detail: d?.detail ?? '',
      role: roles[i] ?? '',
      tool: tools[i] ?? '',
      resource: resources[i] ?? '',
      turn: turns[i] ?? 0,
      firstMessage: firstMessage[i] ?? -1,
      messageCount: messageCounts[i] ?? 0,
    }
  }
  return rows
}

/**
 * Does the group have a message inside `range` (inclusive)? The top-level system prompt belongs
 * to no message index, so a brush leaves it out.
 */
export function inRange(row: GroupRow, range: MessageRange): boolean {
  if (row.firstMessage < 0 || row.messageCount <= 0) return false
  const last = row.firstMessage + row.messageCount - 1
  return row.firstMessage <= range.to && last >= range.from
}

export function filterCounts(rows: readonly GroupRow[]): Record<GroupFilter, number> {
  const counts: Record<GroupFilter, number> = {
    all: 0,
    kept: 0,
    excluded: 0,
    stubbed: 0,
    changed: 0,
    protected: 0,
  }
  for (const row of rows) {
    for (const f of GROUP_FILTERS) if (matchesFilter(row.status, f.id)) counts[f.id]++
  }
  return counts
}
