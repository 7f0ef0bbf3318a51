import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef, useState } from 'react'
import { TID } from '../../testids.ts'
import { GROUP_COLUMNS } from './columns.tsx'
import type { GroupFilter, GroupRow } from './groupRows.ts'

/** Fixed row height (px) the virtualiser lays rows out with; matches `.gt-row` in the CSS. */
export const ROW_HEIGHT = 28

const SORT_LABEL = { asc: 'ascending', desc: 'descending' } as const

/**
 * A sortable table whose body only renders the rows in view (plus a few): spacer rows above and
 * below keep the scroll height of the full list, so 10,000+ groups scroll smoothly.
 */
export function VirtualGroupTable(props: {
  readonly rows: readonly GroupRow[]
  readonly filter: GroupFilter
}) {
  const { rows, filter } = props
  const [sorting, setSorting] = useState<SortingState>([])
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows as GroupRow[],
    columns: GROUP_COLUMNS,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  })
  const modelRows = table.getRowModel().rows
  const virtualizer = useVirtualizer({
    count: modelRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  })
  const items = virtualizer.getVirtualItems()
  const top = items.length > 0 ? (items[0]?.start ?? 0) : 0
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0
  const columnCount = GROUP_COLUMNS.length
  return (
    <div
      ref={scrollRef}
      className="gt-scroll"
      tabIndex={0}
      role="region"
      aria-label="Groups table, scrollable"
      data-filter={filter}
      data-rows={modelRows.length}
    >
      <table className="table gt-table" aria-rowcount={modelRows.length + 1}>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((header) => {
                const sorted = header.column.getIsSorted()
                const meta = header.column.columnDef.meta
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={meta?.className}
                    aria-sort={sorted ? SORT_LABEL[sorted] : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        className="gt-sort"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <span aria-hidden="true">
                          {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                        </span>
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </th>
                )
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {top > 0 ? (
            <tr aria-hidden="true" className="gt-spacer" style={{ height: top }}>
              <td colSpan={columnCount} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = modelRows[item.index]
            if (!row) return null
            return (
              <tr
                key={row.id}
                className="gt-row"
                data-testid={TID.groupRow}
                data-group={row.original.id}
                data-status={row.original.status}
                aria-rowindex={item.index + 2}
              >
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cell.column.columnDef.meta?.className}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            )
          })}
          {bottom > 0 ? (
            <tr aria-hidden="true" className="gt-spacer" style={{ height: bottom }}>
              <td colSpan={columnCount} />
            </tr>
          ) : null}
        </tbody>
      </table>
      {modelRows.length === 0 ? (
        <p className="hint gt-empty">No groups match this filter.</p>
      ) : null}
    </div>
  )
}
