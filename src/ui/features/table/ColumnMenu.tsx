import type { Table } from '@tanstack/react-table'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'

/** Show/hide columns: one checkbox per hideable column (the choice is remembered). */
export function ColumnMenu({ table }: { readonly table: Table<GroupRow> }) {
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
}
