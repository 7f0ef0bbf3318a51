import { memo } from 'react'
import type { Table, VisibilityState } from '@tanstack/react-table'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'

/**
 * Show/hide columns: one checkbox per hideable column (the choice is remembered). Memoised on the
 * visibility (the table instance is the same on every render): re-rendered with the table, each
 * checkbox was written again (React rewrites an input's name and type on every update) on every
 * run of a field edit.
 */
export const ColumnMenu = memo(function ColumnMenu({
  table,
}: {
  readonly table: Table<GroupRow>
  /** What the checkboxes show: only a change of it re-renders the menu. */
  readonly visibility: VisibilityState
}) {
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide())
  return (
    <details className="gt-popover gt-columns" data-testid={TID.tableColumns}>
      <summary>Columns</summary>
      <fieldset className="gt-popover-body">
        <legend className="visually-hidden">Visible columns</legend>
        {columns.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              data-testid={TID.tableColumnToggle}
              data-column={c.id}
              checked={c.getIsVisible()}
              onChange={c.getToggleVisibilityHandler()}
            />{' '}
            {c.columnDef.meta?.label ?? c.id}
          </label>
        ))}
      </fieldset>
    </details>
  )
})
