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
  /** A part a strategy replaced (the stub or trimmed text, shown first). */
  readonly replaced: boolean
}

/** Which side of an expanded group its sub-rows show. */
export type SubSide = 'replacement' | 'original'

export type TableItem =
  | {
      readonly type: 'group'
      readonly row: GroupRow
      readonly expanded: boolean
      /** Position among the displayed groups (sub-rows not counted). */
      readonly position: number
    }
  | { readonly type: 'part'; readonly groupId: string; readonly sub: SubRow }
  /** Above the parts of a stubbed/trimmed group: which side is shown, and the switch. */
  | { readonly type: 'side'; readonly groupId: string; readonly side: SubSide }
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

/**
 * Does this group have a replacement to show first? Stubbed and trimmed groups do (their
 * projected parts carry `replaced`); excluded groups have no projection, kept ones no change.
 */
export function hasReplacement(detail: GroupDetail): boolean {
  return detail.after !== null && detail.after.some((m) => m.parts.some((p) => p.replaced))
}

/**
 * The parts of a group's messages: the replacement (what the model is sent after the run) when
 * the group has one and `side` asks for it, else as the transcript had them (the `before` side).
 */
export function subRowsOf(detail: GroupDetail, side: SubSide = 'original'): SubRow[] {
  const rows: SubRow[] = []
  const messages =
    side === 'replacement' && detail.after && hasReplacement(detail) ? detail.after : detail.before
  const sideKey = messages === detail.before ? 'b' : 'a'
  messages.forEach((message, m) => {
    if (message.parts.length === 0) {
      rows.push({
        key: `${message.id}:${sideKey}:empty`,
        role: message.role,
        firstOfMessage: true,
        messageIndex: message.index,
        partKind: 'empty',
        label: '',
        text: '',
        truncated: false,
        tokens: message.tokens,
        replaced: false,
      })
      return
    }
    message.parts.forEach((part, p) => {
      const text = oneLine(part.text)
      rows.push({
        key: `${message.id}:${sideKey}:${m}:${p}`,
        role: message.role,
        firstOfMessage: p === 0,
        messageIndex: message.index,
        partKind: part.kind,
        label: part.label,
        text: text.slice(0, SUB_ROW_CHARS),
        truncated: part.truncated || text.length > SUB_ROW_CHARS,
        tokens: part.tokens,
        replaced: part.replaced === true,
      })
    })
  })
  return rows
}

/** Sub-rows per reply object: the list is rebuilt on every filter change, the parts need not be. */
const subRowCache = new WeakMap<GroupDetail, Partial<Record<SubSide, readonly SubRow[]>>>()

function cachedSubRows(detail: GroupDetail, side: SubSide): readonly SubRow[] {
  let sides = subRowCache.get(detail)
  if (!sides) {
    sides = {}
    subRowCache.set(detail, sides)
  }
  let rows = sides[side]
  if (!rows) {
    rows = subRowsOf(detail, side)
    sides[side] = rows
  }
  return rows
}

/**
 * The flat list: each group, then (when expanded) its parts or a note in their place. A stubbed
 * or trimmed group shows its replacement first, under a line that switches to the original;
 * `originals` holds the groups switched.
 */
export function tableItems(
  rows: readonly GroupRow[],
  expanded: ReadonlySet<string>,
  details: ReadonlyMap<string, RowFetch>,
  originals: ReadonlySet<string> = new Set(),
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
        const replaced = hasReplacement(detail.detail)
        const side: SubSide = replaced && !originals.has(groupId) ? 'replacement' : 'original'
        if (replaced) items.push({ type: 'side', groupId, side })
        const parts = cachedSubRows(detail.detail, side)
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
