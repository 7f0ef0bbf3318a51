/**
 * The lines the virtualised table draws: group rows, and under each expanded group either its
 * message parts or a note (loading, error). One flat list so the virtualiser sizes and windows
 * both kinds alike (no React here).
 */
import type { GroupDetail, RowFetch } from '../../../store/index.ts'
import type { GroupRow } from './groupRows.ts'

/** Characters of a part shown in its sub-row (what the table asks the worker for). */
export const SUB_ROW_CHARS = 300

/** One part of one message of an expanded group. */
export interface SubRow {
  readonly key: string
  /** Role of the message (shown on its first part only). */
  readonly role: string
  readonly firstOfMessage: boolean
  readonly messageIndex: number
  readonly partKind: string
  readonly label: string
  /** At most `SUB_ROW_CHARS` characters, on one line. */
  readonly text: string
  readonly truncated: boolean
  readonly tokens: number
}

export type TableItem =
  | {
      readonly type: 'group'
      readonly row: GroupRow
      readonly expanded: boolean
      /** Position among the displayed groups (sub-rows not counted). */
      readonly position: number
    }
  | { readonly type: 'part'; readonly groupId: string; readonly sub: SubRow }
  | {
      readonly type: 'note'
      readonly groupId: string
      readonly tone: 'loading' | 'error' | 'empty'
      readonly text: string
    }

/** Whitespace (newlines in code, JSON) collapsed so a part fits its one-line sub-row. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The parts of a group's messages as the transcript had them (the `before` side). */
export function subRowsOf(detail: GroupDetail): SubRow[] {
  const rows: SubRow[] = []
  detail.before.forEach((message, m) => {
    if (message.parts.length === 0) {
      rows.push({
        key: `${message.id}:empty`,
        role: message.role,
        firstOfMessage: true,
        messageIndex: message.index,
        partKind: 'empty',
        label: '',
        text: '',
        truncated: false,
        tokens: message.tokens,
      })
      return
    }
    message.parts.forEach((part, p) => {
      const text = oneLine(part.text)
      rows.push({
        key: `${message.id}:${m}:${p}`,
        role: message.role,
        firstOfMessage: p === 0,
        messageIndex: message.index,
        partKind: part.kind,
        label: part.label,
        text: text.slice(0, SUB_ROW_CHARS),
        truncated: part.truncated || text.length > SUB_ROW_CHARS,
        tokens: part.tokens,
      })
    })
  })
  return rows
}

/** Sub-rows per reply object: the list is rebuilt on every filter change, the parts need not be. */
const subRowCache = new WeakMap<GroupDetail, readonly SubRow[]>()

function cachedSubRows(detail: GroupDetail): readonly SubRow[] {
  let rows = subRowCache.get(detail)
  if (!rows) {
    rows = subRowsOf(detail)
    subRowCache.set(detail, rows)
  }
  return rows
}

/** The flat list: each group, then (when expanded) its parts or a note in their place. */
export function tableItems(
  rows: readonly GroupRow[],
  expanded: ReadonlySet<string>,
  details: ReadonlyMap<string, RowFetch>,
): TableItem[] {
  if (expanded.size === 0) {
    return rows.map((row, position) => ({ type: 'group', row, expanded: false, position }))
  }
  const items: TableItem[] = []
  rows.forEach((row, position) => {
    const open = expanded.has(row.id)
    items.push({ type: 'group', row, expanded: open, position })
    if (!open) return
    const groupId = row.id
    const detail = details.get(groupId) ?? { state: 'loading' }
    switch (detail.state) {
      case 'loading':
        items.push({ type: 'note', groupId, tone: 'loading', text: 'Loading messages…' })
        break
      case 'error':
        items.push({
          type: 'note',
          groupId,
          tone: 'error',
          text: `Could not load the messages: ${detail.message}`,
        })
        break
      case 'ready': {
        const parts = cachedSubRows(detail.detail)
        if (parts.length === 0) {
          items.push({ type: 'note', groupId, tone: 'empty', text: 'No messages in this group.' })
        }
        for (const sub of parts) items.push({ type: 'part', groupId, sub })
        break
      }
      default: {
        const never: never = detail
        return never
      }
    }
  })
  return items
}

/** Position of a group's own line in the list (−1 when filtered out). */
export function itemIndexOf(items: readonly TableItem[], groupId: string): number {
  return items.findIndex((it) => it.type === 'group' && it.row.id === groupId)
}
