import { createColumnHelper } from '@tanstack/react-table'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'

const col = createColumnHelper<GroupRow>()

/** Column definitions: module scope so the table never sees a new array between renders. */
export const GROUP_COLUMNS = [
  // The chevron column: its cell is drawn by the table (it needs the row's expanded state).
  col.display({
    id: 'expand',
    header: () => <span className="visually-hidden">Expand</span>,
    enableHiding: false,
    meta: { className: 'gt-expand', label: 'Expand' },
  }),
  col.accessor('index', {
    header: '#',
    size: 48,
    meta: { className: 'num gt-index', label: 'Index' },
  }),
  col.accessor('kind', {
    header: 'Kind',
    size: 92,
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
    meta: { className: 'gt-kind', label: 'Kind' },
  }),
  col.accessor('role', { header: 'Role', meta: { className: 'gt-role', label: 'Role' } }),
  col.accessor('tool', {
    header: 'Tool',
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
    meta: { className: 'gt-tool', label: 'Tool' },
  }),
  col.accessor('resource', {
    header: 'Resource',
    enableSorting: false,
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
    meta: { className: 'gt-resource', label: 'Resource' },
  }),
  col.accessor('before', {
    header: 'Before',
    size: 68,
    cell: (c) => formatCount(c.getValue()),
    sortDescFirst: true,
    meta: { className: 'num gt-tokens gt-before', label: 'Tokens before' },
  }),
  col.accessor('after', {
    header: 'After',
    size: 68,
    cell: (c) => formatCount(c.getValue()),
    sortDescFirst: true,
    meta: { className: 'num gt-tokens gt-after', label: 'Tokens after' },
  }),
  col.accessor('status', {
    header: 'Status',
    size: 88,
    cell: (c) => (
      <span className={`pill gt-status ${c.getValue()}`} data-testid={TID.groupStatus}>
        {c.getValue()}
      </span>
    ),
    meta: { className: 'gt-status-cell', label: 'Status' },
  }),
  col.accessor('reason', {
    header: 'Reason',
    enableSorting: false,
    cell: (c) => {
      const row = c.row.original
      const text = row.reason || row.detail
      return (
        <span title={[row.strategy, row.reason, row.detail].filter(Boolean).join(' · ')}>
          {row.strategy ? (
            <span className="gt-strategy" data-testid={TID.reasonBadge}>
              {row.strategy}
            </span>
          ) : null}
          {text}
        </span>
      )
    },
    meta: { className: 'gt-reason', label: 'Reason' },
  }),
]

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    readonly className?: string
    /** Name in the column menu. */
    readonly label?: string
  }
}
