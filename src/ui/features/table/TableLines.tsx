import { flexRender, type Row, type Table } from '@tanstack/react-table'
import { memo, type Ref } from 'react'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'
import type { TableItem } from './tableItems.ts'

const SORT_LABEL = { asc: 'ascending', desc: 'descending' } as const

/** Header cells; sortable ones are buttons that cycle the sort. */
export function GroupHead({ table }: { readonly table: Table<GroupRow> }) {
  return (
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
  )
}

interface GroupLineProps {
  readonly row: Row<GroupRow>
  readonly rowIndex: number
  /** Position in the virtual list, and the virtualiser's measuring ref (real heights win). */
  readonly itemIndex: number
  readonly measure: Ref<HTMLTableRowElement>
  readonly expanded: boolean
  readonly selected: boolean
  /** Visible column ids: the row object stays the same when columns are toggled, this does not. */
  readonly columnsKey: string
  readonly onSelect: (id: string, open: boolean) => void
  readonly onToggle: (id: string) => void
}

/**
 * One group: click selects it, double click (or Enter on the table) opens the detail drawer, the
 * chevron expands it to its messages without changing the selection.
 */
export const GroupLine = memo(function GroupLine(props: GroupLineProps) {
  const { row, rowIndex, itemIndex, measure, expanded, selected, onSelect, onToggle } = props
  const group = row.original
  return (
    <tr
      ref={measure}
      data-index={itemIndex}
      className={selected ? 'gt-row selected' : 'gt-row'}
      data-testid={TID.groupRow}
      data-group={group.id}
      data-status={group.status}
      data-selected={selected ? 'true' : undefined}
      aria-selected={selected}
      aria-expanded={expanded}
      aria-rowindex={rowIndex + 2}
      onClick={() => onSelect(group.id, false)}
      onDoubleClick={() => onSelect(group.id, true)}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className={cell.column.columnDef.meta?.className}>
          {cell.column.id === 'expand' ? (
            <button
              type="button"
              className="gt-chevron"
              data-testid={TID.rowExpand}
              aria-expanded={expanded}
              aria-label={`${expanded ? 'Collapse' : 'Expand'} group ${group.index} (${group.messageCount} messages)`}
              disabled={group.messageCount <= 0}
              onClick={(e) => {
                e.stopPropagation()
                onToggle(group.id)
              }}
              onDoubleClick={(e) => e.stopPropagation()}
            >
              <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
            </button>
          ) : (
            flexRender(cell.column.columnDef.cell, cell.getContext())
          )}
        </td>
      ))}
    </tr>
  )
})

/** A message part (or a loading / error note) under an expanded group. */
export function SubLine(props: {
  readonly item: Exclude<TableItem, { type: 'group' }>
  readonly columnCount: number
  readonly itemIndex: number
  readonly measure: Ref<HTMLTableRowElement>
}) {
  const { item, columnCount, itemIndex, measure } = props
  if (item.type === 'note') {
    return (
      <tr
        ref={measure}
        data-index={itemIndex}
        className={`gt-sub gt-note ${item.tone}`}
        data-testid={TID.groupSubRow}
        data-group={item.groupId}
        data-tone={item.tone}
      >
        <td colSpan={columnCount}>
          <div className="gt-sub-line" role={item.tone === 'error' ? 'alert' : undefined}>
            {item.text}
          </div>
        </td>
      </tr>
    )
  }
  const { sub } = item
  return (
    <tr
      ref={measure}
      data-index={itemIndex}
      className={sub.firstOfMessage ? 'gt-sub first' : 'gt-sub'}
      data-testid={TID.groupSubRow}
      data-group={item.groupId}
      data-part={sub.partKind}
    >
      <td colSpan={columnCount}>
        <div className="gt-sub-line">
          <span className="gt-sub-role">{sub.firstOfMessage ? sub.role : ''}</span>
          <span className="gt-sub-kind">{sub.partKind}</span>
          <span className="gt-sub-label" title={sub.label}>
            {sub.label}
          </span>
          <span className="gt-sub-text" title={sub.text}>
            {sub.text}
            {sub.truncated ? '…' : ''}
          </span>
          <span className="gt-sub-tokens num">{formatCount(sub.tokens)}</span>
        </div>
      </td>
    </tr>
  )
}
