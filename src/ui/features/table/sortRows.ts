/**
 * The table's sort, done outside TanStack Table (issue 14: field edit → views ≤ 100 ms). TanStack
 * builds a `Row` object for every datum whenever `data` changes — on 10,000 groups that was most
 * of an edit's main-thread time, although only the ~50 rows in view are ever drawn. The table now
 * sorts plain `GroupRow`s here and hands TanStack only the rows in view (`manualSorting`).
 * The order matches what `getSortedRowModel` gave: the same built-in sorting functions, picked
 * the same way ('auto'), ties kept in data order.
 */
import { reSplitAlphaNumeric, sortingFns, type Row, type SortingState } from '@tanstack/react-table'
import type { GroupRow } from './groupRows.ts'

type Comparator = (a: GroupRow, b: GroupRow) => number
type SortKey = keyof GroupRow

/** What TanStack's `sortingFns` read of a row: its value by column id. */
function adapter(row: GroupRow): Row<GroupRow> {
  // TRICKY: the built-in sorting functions only call `getValue(columnId)`; a full Row would
  // cost what this file exists to avoid.
  return { getValue: (id: string) => row[id as SortKey] } as unknown as Row<GroupRow>
}

/**
 * TanStack's 'auto' choice (`getAutoSortingFn`), on the same rows it looks at (it skips the first
 * ten: `flatRows.slice(10)`).
 */
function autoSortingFn(rows: readonly GroupRow[], key: SortKey): (typeof sortingFns)['basic'] {
  let isString = false
  for (const row of rows.slice(10)) {
    const value = row[key]
    if (typeof value === 'string') {
      isString = true
      if (value.split(reSplitAlphaNumeric).length > 1) return sortingFns.alphanumeric
    }
  }
  return isString ? sortingFns.text : sortingFns.basic
}

/** Plain comparisons for the common cases; the built-in functions otherwise. */
function comparatorFor(rows: readonly GroupRow[], key: SortKey): Comparator {
  const fn = autoSortingFn(rows, key)
  // `basic` on numbers is a plain comparison: skip the adapters on the hot path.
  if (fn === sortingFns.basic)
    return (a, b) => {
      const x = a[key]
      const y = b[key]
      return x === y ? 0 : x > y ? 1 : -1
    }
  return (a, b) => fn(adapter(a), adapter(b), key)
}

/**
 * `rows` in the order `sorting` asks for (a new array), or `rows` itself when nothing is sorted.
 * `sortable` says which column ids may sort (others in the state are ignored, as TanStack does).
 */
export function sortRows(
  rows: readonly GroupRow[],
  sorting: SortingState,
  sortable: (id: string) => boolean,
): readonly GroupRow[] {
  const active = sorting.filter((s) => sortable(s.id))
  if (rows.length === 0 || active.length === 0) return rows
  const keys = active.map((s) => ({
    compare: comparatorFor(rows, s.id as SortKey),
    desc: s.desc,
  }))
  const order = rows.map((row, position) => ({ row, position }))
  order.sort((a, b) => {
    for (const { compare, desc } of keys) {
      const c = compare(a.row, b.row)
      if (c !== 0) return desc ? -c : c
    }
    return a.position - b.position
  })
  return order.map((o) => o.row)
}
