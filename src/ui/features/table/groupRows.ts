/** Pure helpers for the grouped table: one row per group, filters and their counts (no React). */
import type {
  GroupStatus,
  MessageRange,
  RunView,
  TableChip,
  WireDecision,
  WireDecisions,
} from '../../../store/index.ts'
import type { QueryRow } from './query.ts'
import type { RowSentences } from './useRowSentences.ts'

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
 * The decision that explains each group, as its index in the run's decision columns: the first
 * changing one (exclude/stub/trim/insert) wins, otherwise the first `protected` one. Other kinds
 * (skip, failed_open) never explain a row.
 */
export function decisionsByGroup(decisions: WireDecisions): ReadonlyMap<string, number> {
  const map = new Map<string, number>()
  const changing = decisions.kinds.map((k) => CHANGING_KINDS.has(k))
  const protecting = decisions.kinds.map((k) => k === 'protected')
  for (let i = 0; i < decisions.length; i++) {
    const groupId = decisions.groupId[i]
    if (!groupId) continue
    const kind = decisions.kind[i] ?? 0
    const current = map.get(groupId)
    if (changing[kind]) {
      if (current === undefined || !changing[decisions.kind[current] ?? 0]) map.set(groupId, i)
    } else if (protecting[kind] && current === undefined) {
      map.set(groupId, i)
    }
  }
  return map
}

/**
 * `buildRows` that keeps the previous run's row object for every group the new run left as it
 * was (issue 14): memoised table lines then skip them, and an edit that changes a few groups
 * re-renders a few lines. Returns the previous array itself when nothing changed.
 */
export function createRowCache(): (
  summary: RunView,
  sentences?: RowSentences | null,
) => readonly GroupRow[] {
  let last: readonly GroupRow[] = []
  // The rows read only the groups, the decisions and their sentences: a summary that keeps them
  // (the settled idempotence check replaces the summary with new invariants) has the same rows.
  let from: { groups: unknown; decisions: unknown; sentences: unknown } | null = null
  return (summary, sentences = null) => {
    if (
      from &&
      from.groups === summary.groups &&
      from.decisions === summary.decisions &&
      from.sentences === sentences
    )
      return last
    from = { groups: summary.groups, decisions: summary.decisions, sentences }
    const next = buildRows(summary, last, sentences)
    const changed = next.length !== last.length || next.some((row, i) => row !== last[i])
    if (!changed) return last
    last = next
    return next
  }
}

/**
 * One row per group. With `previous` (the last run's rows), a group whose every field is the same
 * keeps its old object: compared field by field before allocating, so a field edit on 10,000
 * groups builds only the rows that changed (this ran in the render that paints after an edit).
 * `sentences`: the decisions' sentences when they are in. Until then a row that is otherwise the
 * same keeps its old object, sentence included (its new one follows within a round trip), so an
 * edit still re-renders only the rows it changed; a new or changed row has none yet ('').
 */
export function buildRows(
  summary: RunView,
  previous: readonly GroupRow[] = [],
  sentences: RowSentences | null = null,
): GroupRow[] {
  const { ids, kinds, status, tokensBefore, tokensAfter } = summary.groups
  const { roles, tools, resources, turns, firstMessage, messageCounts } = summary.groups
  const decisions = summary.decisions
  const byGroup = decisionsByGroup(decisions)
  const rows: GroupRow[] = new Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? ''
    const d = byGroup.get(id)
    const kind = kinds[i] ?? ''
    const before = tokensBefore[i] ?? 0
    const after = tokensAfter[i] ?? 0
    const st = status[i] ?? 'kept'
    const reason = d === undefined ? '' : (decisions.reasons[decisions.reason[d] ?? 0] ?? '')
    const strategy = d === undefined ? '' : (decisions.strategies[decisions.strategy[d] ?? 0] ?? '')
    // null: this run's sentence is not in yet.
    const detail = d === undefined ? '' : sentences ? (sentences.get(d) ?? '') : null
    const role = roles[i] ?? ''
    const tool = tools[i] ?? ''
    const resource = resources[i] ?? ''
    const turn = turns[i] ?? 0
    const first = firstMessage[i] ?? -1
    const messageCount = messageCounts[i] ?? 0
    const old = previous[i]
    rows[i] =
      old &&
      old.index === i &&
      old.id === id &&
      old.kind === kind &&
      old.before === before &&
      old.after === after &&
      old.status === st &&
      old.reason === reason &&
      old.strategy === strategy &&
      (detail === null || old.detail === detail) &&
      old.role === role &&
      old.tool === tool &&
      old.resource === resource &&
      old.turn === turn &&
      old.firstMessage === first &&
      old.messageCount === messageCount
        ? old
        : {
            index: i,
            id,
            kind,
            before,
            after,
            status: st,
            reason,
            strategy,
            detail: detail ?? '',
            role,
            tool,
            resource,
            turn,
            firstMessage: first,
            messageCount,
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
  // Count each status once, then each chip from the statuses (not chips × rows matches).
  const byStatus = new Map<GroupStatus, number>()
  for (const row of rows) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1)
  for (const [st, n] of byStatus)
    for (const f of GROUP_FILTERS) if (matchesFilter(st, f.id)) counts[f.id] += n
  return counts
}
