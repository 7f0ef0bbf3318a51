import {
  getCoreRowModel,
  useReactTable,
  type ColumnSizingState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import {
  useNavActions,
  useRowDetails,
  useSelectedGroup,
  useLabStore,
} from '../../../store/index.ts'
import { ColumnMenu } from './ColumnMenu.tsx'
import {
  COLUMN_MAX,
  COLUMN_MIN,
  readColumnSizes,
  readVisibility,
  writeColumnSizes,
  writeVisibility,
} from './columnPrefs.ts'
import { GROUP_COLUMNS } from './columns.tsx'
import type { GroupFilter, GroupRow } from './groupRows.ts'
import { GroupHead, GroupLine, SubLine } from './TableLines.tsx'
import { sortRows } from './sortRows.ts'
import { itemIndexOf, tableItems, type TableItem } from './tableItems.ts'

/** Fixed heights (px) the virtualiser lays lines out with; they match `.gt-row` / `.gt-sub`. */
export const ROW_HEIGHT = 28
export const SUB_ROW_HEIGHT = 24

/** Column ids (accessor columns are named by their key) for reading stored visibility. */
const COLUMN_IDS = GROUP_COLUMNS.map((c) =>
  c.id !== undefined ? c.id : 'accessorKey' in c ? String(c.accessorKey) : '',
)

/** Columns a header click may sort by (accessor columns that do not opt out). */
const SORTABLE: ReadonlySet<string> = new Set(
  GROUP_COLUMNS.flatMap((c) =>
    'accessorKey' in c && c.enableSorting !== false ? [String(c.accessorKey)] : [],
  ),
)
const canSort = (id: string) => SORTABLE.has(id)

function itemKey(item: TableItem | undefined, index: number): string {
  if (!item) return `missing-${index}`
  if (item.type === 'group') return item.row.id
  if (item.type === 'part') return `${item.groupId}/${item.sub.key}`
  if (item.type === 'side') return `${item.groupId}/side`
  return `${item.groupId}/note`
}

/**
 * A sortable table whose body only renders the lines in view (plus a few): spacer rows above and
 * below keep the scroll height of the full list, so 10,000+ groups scroll smoothly. Expanded
 * groups add their message parts as fixed-height lines of the same list.
 */
export function VirtualGroupTable(props: {
  readonly rows: readonly GroupRow[]
  readonly filter: GroupFilter
  /** The query bar, shown beside the column menu. */
  readonly toolbar: ReactNode
  /** Status chips, between the toolbar and the rows. */
  readonly chips: ReactNode
  /** Rows matching the find text: highlighted, never filtered out. */
  readonly matches?: ReadonlySet<string>
}) {
  const lab = useLabStore()
  const { rows, filter, toolbar, chips, matches } = props
  const [sorting, setSorting] = useState<SortingState>([])
  const [visibility, setVisibility] = useState<VisibilityState>(() => readVisibility(COLUMN_IDS))
  const [sizing, setSizing] = useState<ColumnSizingState>(() => readColumnSizes(COLUMN_IDS))
  const scrollRef = useRef<HTMLDivElement>(null)
  const [headHeight, setHeadHeight] = useState(ROW_HEIGHT)
  const headRef = useCallback((el: HTMLTableSectionElement | null) => {
    if (el) setHeadHeight(Math.round(el.getBoundingClientRect().height) || ROW_HEIGHT)
  }, [])
  const selected = useSelectedGroup()
  const { setVisibleGroupIds } = useNavActions()
  const { expanded, fetched, toggle } = useRowDetails()
  // Expanded stubbed/trimmed groups switched to their original text (the replacement is first).
  const [originals, setOriginals] = useState<ReadonlySet<string>>(() => new Set())
  const switchSide = useCallback((groupId: string) => {
    setOriginals((old) => {
      const next = new Set(old)
      if (!next.delete(groupId)) next.add(groupId)
      return next
    })
  }, [])

  // Sorted here, not by TanStack: its row model would build a Row per group on every run.
  const displayed = useMemo(() => sortRows(rows, sorting, canSort), [rows, sorting])
  const items = useMemo(
    () => tableItems(displayed, expanded, fetched, originals),
    [displayed, expanded, fetched, originals],
  )

  // Keyboard navigation (j/k) walks the rows in the order shown here.
  useEffect(() => {
    setVisibleGroupIds(displayed.map((r) => r.id))
  }, [displayed, setVisibleGroupIds])

  const getItemKey = useCallback((i: number) => itemKey(items[i], i), [items])
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (items[i]?.type === 'group' ? ROW_HEIGHT : SUB_ROW_HEIGHT),
    getItemKey,
    overscan: 12,
    // TRICKY: the rows start under the sticky header, inside the same scroll box. Telling the
    // virtualiser so (padding) makes "scroll into view" land below the header instead of under
    // it, and keeps a row moved to with j at the bottom edge fully visible.
    paddingStart: headHeight,
    scrollPaddingStart: headHeight,
  })

  const virtualItems = virtualizer.getVirtualItems()
  const inView = useMemo(
    () =>
      virtualItems.flatMap((v) => {
        const item = items[v.index]
        return item?.type === 'group' ? [item.row] : []
      }),
    [virtualItems, items],
  )

  const table = useReactTable({
    // Only the groups in view: the header, sizing and visibility are TanStack's, the order ours.
    data: inView,
    columns: GROUP_COLUMNS,
    state: { sorting, columnVisibility: visibility, columnSizing: sizing },
    onSortingChange: setSorting,
    manualSorting: true,
    // Widenable columns (drag a header's right edge; double-click resets), remembered.
    enableColumnResizing: true,
    columnResizeMode: 'onChange',
    defaultColumn: { minSize: COLUMN_MIN, maxSize: COLUMN_MAX },
    onColumnSizingChange: (update) => {
      setSizing((old) => {
        const next = typeof update === 'function' ? update(old) : update
        writeColumnSizes(next)
        return next
      })
    },
    onColumnVisibilityChange: (update) => {
      setVisibility((old) => {
        const next = typeof update === 'function' ? update(old) : update
        writeVisibility(next)
        return next
      })
    },
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
  })

  // A selection made elsewhere (strip, timeline, keys, invariants) scrolls its row into view.
  // TRICKY: a row picked in a hidden view (the overview's strip) arrives while the list has no
  // height yet; scrolling then would use a zero-height viewport. Wait until it has one (the
  // virtualiser re-renders us when its measured size changes).
  const scrolledTo = useRef<string | null>(null)
  const viewportHeight = virtualizer.scrollRect?.height ?? 0
  useEffect(() => {
    if (selected === null) scrolledTo.current = null
    if (selected === null || selected === scrolledTo.current || viewportHeight <= 0) return
    const at = itemIndexOf(items, selected)
    if (at < 0) return
    scrolledTo.current = selected
    virtualizer.scrollToIndex(at, { align: 'auto' })
  }, [selected, items, virtualizer, viewportHeight])

  const select = useCallback(
    (id: string, open: boolean) => {
      lab.getState().selectGroup(id, open ? { open: true } : undefined)
    },
    [lab],
  )

  // The header's height is in every start (paddingStart) but is drawn by the header itself.
  const top = Math.max(0, (virtualItems[0]?.start ?? headHeight) - headHeight)
  const bottom =
    virtualItems.length > 0 ? virtualizer.getTotalSize() - (virtualItems.at(-1)?.end ?? 0) : 0
  const visibleColumns = table.getVisibleLeafColumns()
  const columnCount = visibleColumns.length
  const columnsKey = visibleColumns.map((c) => c.id).join(',')
  return (
    <>
      <div className="gt-toolbar">
        {toolbar}
        <ColumnMenu table={table} visibility={visibility} />
      </div>
      {chips}
      <div
        ref={scrollRef}
        className="gt-scroll"
        tabIndex={0}
        role="region"
        aria-label="Groups table, scrollable. Arrow right and left expand and collapse the selected row."
        data-filter={filter}
        data-rows={displayed.length}
        onKeyDown={(e) => {
          if (selected === null || e.target !== e.currentTarget) return
          const open = expanded.has(selected)
          if ((e.key === 'ArrowRight' && !open) || (e.key === 'ArrowLeft' && open)) {
            e.preventDefault()
            toggle(selected)
          }
        }}
      >
        <table className="table gt-table" aria-rowcount={displayed.length + 1}>
          <GroupHead table={table} headRef={headRef} />
          <tbody>
            {top > 0 ? (
              <tr aria-hidden="true" className="gt-spacer" style={{ height: top }}>
                <td colSpan={columnCount} />
              </tr>
            ) : null}
            {virtualItems.map((v) => {
              const item = items[v.index]
              if (!item) return null
              if (item.type !== 'group') {
                return (
                  <SubLine
                    key={v.key}
                    item={item}
                    columnCount={columnCount}
                    itemIndex={v.index}
                    measure={virtualizer.measureElement}
                    onSwitchSide={switchSide}
                  />
                )
              }
              const row = table.getRow(item.row.id)
              return (
                <GroupLine
                  key={v.key}
                  row={row}
                  rowIndex={item.position}
                  itemIndex={v.index}
                  measure={virtualizer.measureElement}
                  expanded={item.expanded}
                  selected={item.row.id === selected}
                  matched={matches?.has(item.row.id) === true}
                  columnsKey={columnsKey}
                  onSelect={select}
                  onToggle={toggle}
                />
              )
            })}
            {bottom > 0 ? (
              <tr aria-hidden="true" className="gt-spacer" style={{ height: bottom }}>
                <td colSpan={columnCount} />
              </tr>
            ) : null}
          </tbody>
        </table>
        {displayed.length === 0 ? (
          <p className="hint gt-empty">No groups match this filter.</p>
        ) : null}
      </div>
    </>
  )
}
