import {
  createTable,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
} from '@tanstack/react-table'
import { describe, expect, it } from 'vitest'
import { GROUP_COLUMNS } from './columns.tsx'
import type { GroupRow } from './groupRows.ts'
import { sortRows } from './sortRows.ts'

const KINDS = ['tool_call', 'user', 'assistant', 'system', 'summary']
const TOOLS = ['', 'Read', 'Bash', 'grep2', 'Edit', 'read', 'file10', 'file9']
const STATUS = ['kept', 'excluded', 'stubbed', 'trimmed', 'protected'] as const

/** Rows with ties and mixed-case, digit-bearing strings: what the sort must order alike. */
function rows(n: number): GroupRow[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    id: `g${i}`,
    kind: KINDS[(i * 7) % KINDS.length] ?? '',
    before: (i * 37) % 11,
    after: (i * 13) % 5,
    status: STATUS[(i * 3) % STATUS.length] ?? 'kept',
    reason: '',
    strategy: '',
    detail: '',
    role: i % 2 ? 'user' : 'assistant',
    tool: TOOLS[(i * 5) % TOOLS.length] ?? '',
    resource: '',
    turn: i % 4,
    firstMessage: i,
    messageCount: 1,
  }))
}

/** What TanStack's own sorted row model gives for the same data and state. */
function tanstackOrder(data: GroupRow[], sorting: SortingState): string[] {
  const table = createTable<GroupRow>({
    data,
    columns: GROUP_COLUMNS,
    state: { sorting, columnPinning: {}, columnVisibility: {}, columnSizing: {} },
    onStateChange: () => {},
    renderFallbackValue: null,
    getRowId: (r) => r.id,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  })
  return table.getRowModel().rows.map((r) => r.id)
}

describe('sortRows', () => {
  const data = rows(60)
  const canSort = (id: string) => !['expand', 'resource', 'reason'].includes(id)

  it('orders every sortable column as TanStack did, both ways, ties in data order', () => {
    for (const id of ['index', 'kind', 'role', 'tool', 'before', 'after', 'status']) {
      for (const desc of [false, true]) {
        const sorting = [{ id, desc }]
        expect(
          sortRows(data, sorting, canSort).map((r) => r.id),
          `${id} ${desc}`,
        ).toEqual(tanstackOrder(data, sorting))
      }
    }
  })

  it('sorts by several columns in turn', () => {
    const sorting = [
      { id: 'status', desc: false },
      { id: 'before', desc: true },
    ]
    expect(sortRows(data, sorting, canSort).map((r) => r.id)).toEqual(tanstackOrder(data, sorting))
  })

  it('returns the rows themselves when nothing (sortable) is sorted', () => {
    expect(sortRows(data, [], canSort)).toBe(data)
    expect(sortRows(data, [{ id: 'reason', desc: false }], canSort)).toBe(data)
  })
})
