/** Find in the group list: which rows match and stepping through them (pure, tested in Node). */
import type { AppState } from '../../../store/index.ts'
import type { QueryRow } from './query.ts'

/** The row fields find reads (what the list shows; message text is in the detail pane). */
const FIELDS = [
  'id',
  'kind',
  'role',
  'tool',
  'resource',
  'status',
  'strategy',
  'reason',
  'detail',
] as const

/** Does the row show `needle` (lower-cased, non-empty) in one of its fields? */
export function rowMatches(row: QueryRow, needle: string): boolean {
  return FIELDS.some((f) => row[f].toLowerCase().includes(needle))
}

/**
 * Ids of the rows that match `text` (case-insensitive substring), in `order` (the list's
 * display order); rows not in `order` are left out. Empty text matches nothing.
 */
export function findMatches(
  rows: readonly QueryRow[],
  text: string,
  order: readonly string[],
): string[] {
  const needle = text.trim().toLowerCase()
  if (needle === '') return []
  const hit = new Set<string>()
  for (const row of rows) if (rowMatches(row, needle)) hit.add(row.id)
  return order.filter((id) => hit.has(id))
}

/**
 * The match `delta` steps from the current row, wrapping around. From a row that is not a match,
 * forward goes to the first match after it in `order` (backward: the last before it), so the
 * search continues from where the user is.
 */
export function stepMatch(
  matches: readonly string[],
  order: readonly string[],
  current: string | null,
  delta: 1 | -1,
): string | null {
  if (matches.length === 0) return null
  const at = current === null ? -1 : matches.indexOf(current)
  if (at >= 0) return matches[(at + delta + matches.length) % matches.length] ?? null
  const position = current === null ? -1 : order.indexOf(current)
  if (position < 0) return (delta > 0 ? matches[0] : matches.at(-1)) ?? null
  const rank = new Map(order.map((id, i) => [id, i]))
  const after = matches.filter((id) => (rank.get(id) ?? -1) > position)
  const before = matches.filter((id) => (rank.get(id) ?? -1) < position)
  if (delta > 0) return after[0] ?? matches[0] ?? null
  return before.at(-1) ?? matches.at(-1) ?? null
}

/** Select the next (or previous) match: the list scrolls it into view among its neighbours. */
export function goToMatch(s: AppState, delta: 1 | -1): void {
  const next = stepMatch(s.findMatches, s.visibleGroupIds ?? [], s.selectedGroup, delta)
  if (next !== null && next !== s.selectedGroup) s.selectGroup(next, { open: s.drawerOpen })
}
