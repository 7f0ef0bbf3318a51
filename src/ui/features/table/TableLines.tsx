import { flexRender, type Header, type Row, type Table } from '@tanstack/react-table'
import { memo, type Ref } from 'react'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'
import type { TableItem } from './tableItems.ts'

const SORT_LABEL = { asc: 'ascending', desc: 'descending' } as const

/** Header cells; sortable ones are buttons that cycle the sort; resizable ones have an edge. */
export function GroupHead(props: {
  readonly table: Table<GroupRow>
  /** Measures the header (the list's rows start below it). */
  readonly headRef?: Ref<HTMLTableSectionElement>
}) {
  const { table, headRef } = props
  const sizing = table.getState().columnSizing
  return (
    <thead ref={headRef}>
      {table.getHeaderGroups().map((hg) => (
        <tr key={hg.id}>
          {hg.headers.map((header) => {
            const sorted = header.column.getIsSorted()
            const meta = header.column.columnDef.meta
            // A dragged width wins over the stylesheet's; untouched columns keep the CSS one.
            const sized = sizing[header.column.id] !== undefined
            return (
              <th
                key={header.id}
                scope="col"
                className={meta?.className}
                style={sized ? { width: header.getSize() } : undefined}
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
                {header.column.getCanResize() && header.column.id !== 'expand' ? (
                  <ColumnResizer table={table} columnId={header.column.id} header={header} />
                ) : null}
              </th>
            )
          })}
        </tr>
      ))}
    </thead>
  )
}

/**
 * A header's right edge: drag to widen or narrow the column (the width is remembered), double
 * click to give it back its default; focused, ←/→ change it by 16 px.
 */
function ColumnResizer(props: {
  readonly table: Table<GroupRow>
  readonly columnId: string
  readonly header: Header<GroupRow, unknown>
}) {
  const { table, columnId, header } = props
  const label = header.column.columnDef.meta?.label ?? columnId
  const setWidth = (px: number) =>
    table.setColumnSizing((old) => ({ ...old, [columnId]: Math.max(32, Math.round(px)) }))
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize the ${label} column`}
      aria-valuenow={header.getSize()}
      tabIndex={0}
      className={header.column.getIsResizing() ? 'gt-resizer resizing' : 'gt-resizer'}
      data-testid={TID.columnResizer}
      data-column={columnId}
      // The handler is made when a drag starts: making it on every render looked the column up
      // through TanStack's flat column index, rebuilt after each load (28 ms in a paste's render).
      onMouseDown={(e) => header.getResizeHandler()(e)}
      onTouchStart={(e) => header.getResizeHandler()(e)}
      onDoubleClick={() => header.column.resetSize()}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
        e.preventDefault()
        const th = e.currentTarget.parentElement
        const now = th ? th.getBoundingClientRect().width : header.getSize()
        setWidth(now + (e.key === 'ArrowRight' ? 16 : -16))
      }}
    />
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
  /** The row matches the find text (highlighted; the list is not narrowed). */
  readonly matched: boolean
  /** Visible column ids: the row object stays the same when columns are toggled, this does not. */
  readonly columnsKey: string
  readonly onSelect: (id: string, open: boolean) => void
  readonly onToggle: (id: string) => void
}

/**
 * One group: a click selects it and shows it in the detail pane (Enter moves focus there), the
 * chevron expands it to its messages without changing the selection. Excluded rows are dimmed
 * (CSS on `data-status`), find matches marked (`data-match`).
 */
export const GroupLine = memo(GroupLineBody, sameLine)

/**
 * The table hands TanStack only the rows in view, so its `Row` objects are new whenever the view
 * or the run changes; the group they wrap is what matters. `buildRows` keeps a group's object
 * while nothing in it changed, so an edit re-renders only the rows it changed (issue 14).
 */
function sameLine(a: GroupLineProps, b: GroupLineProps): boolean {
  for (const key of Object.keys(a) as (keyof GroupLineProps)[]) {
    if (key === 'row' ? a.row.original !== b.row.original : a[key] !== b[key]) return false
  }
  return true
}

function GroupLineBody(props: GroupLineProps) {
  const { row, rowIndex, itemIndex, measure, expanded, selected, matched, onSelect, onToggle } =
    props
  const group = row.original
  return (
    <tr
      ref={measure}
      data-index={itemIndex}
      className={selected ? 'gt-row selected' : 'gt-row'}
      data-match={matched ? 'true' : undefined}
      data-testid={TID.groupRow}
      data-group={group.id}
      data-status={group.status}
      data-selected={selected ? 'true' : undefined}
      aria-selected={selected}
      aria-expanded={expanded}
      aria-rowindex={rowIndex + 2}
      onClick={() => onSelect(group.id, true)}
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
}

/** Above a stubbed/trimmed group's parts: which side is shown, one click to the other. */
function SideLine(props: {
  readonly item: Extract<TableItem, { type: 'side' }>
  readonly columnCount: number
  readonly itemIndex: number
  readonly measure: Ref<HTMLTableRowElement>
  readonly onSwitch: (groupId: string) => void
}) {
  const { item, columnCount, itemIndex, measure, onSwitch } = props
  const replacement = item.side === 'replacement'
  return (
    <tr
      ref={measure}
      data-index={itemIndex}
      className="gt-sub gt-side"
      data-testid={TID.groupSubRow}
      data-group={item.groupId}
      data-side={item.side}
    >
      <td colSpan={columnCount}>
        <div className="gt-sub-line">
          <span className="gt-side-label">
            {replacement
              ? 'What the model is sent now (the replacement)'
              : 'The original, as the transcript had it'}
          </span>
          <button
            type="button"
            className="button ghost gt-side-switch"
            data-testid={TID.subRowOriginal}
            aria-pressed={!replacement}
            onClick={() => onSwitch(item.groupId)}
          >
            {replacement ? 'Show the original' : 'Show the replacement'}
          </button>
        </div>
      </td>
    </tr>
  )
}

/** A message part (or a loading / error note, or the side switch) under an expanded group. */
export function SubLine(props: {
  readonly item: Exclude<TableItem, { type: 'group' }>
  readonly columnCount: number
  readonly itemIndex: number
  readonly measure: Ref<HTMLTableRowElement>
  readonly onSwitchSide: (groupId: string) => void
}) {
  const { item, columnCount, itemIndex, measure, onSwitchSide } = props
  if (item.type === 'side') {
    return (
      <SideLine
        item={item}
        columnCount={columnCount}
        itemIndex={itemIndex}
        measure={measure}
        onSwitch={onSwitchSide}
      />
    )
  }
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
      data-replaced={sub.replaced ? 'true' : undefined}
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
