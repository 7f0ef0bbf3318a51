import { createColumnHelper } from '@tanstack/react-table'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { GroupRow } from './groupRows.ts'

const col = createColumnHelper<GroupRow>()

/** Column definitions: module scope so the table never sees a new array between renders. */
export const GROUP_COLUMNS = [
  col.accessor('index', { header: '#', meta: { className: 'num gt-index' } }),
  col.accessor('kind', { header: 'Kind', meta: { className: 'gt-kind' } }),
  col.accessor('before', {
    header: 'Before',
    cell: (c) => formatCount(c.getValue()),
    meta: { className: 'num gt-tokens' },
  }),
  col.accessor('after', {
    header: 'After',
    cell: (c) => formatCount(c.getValue()),
    meta: { className: 'num gt-tokens' },
  }),
  col.accessor('status', {
    header: 'Status',
    cell: (c) => (
      <span className={`pill gt-status ${c.getValue()}`} data-testid={TID.groupStatus}>
        {c.getValue()}
      </span>
    ),
    meta: { className: 'gt-status-cell' },
  }),
  col.accessor('reason', {
    header: 'Reason',
    enableSorting: false,
    cell: (c) => {
      const row = c.row.original
      const text = row.reason || row.detail
      return (
        <span title={[row.strategy, row.reason, row.detail].filter(Boolean).join(' · ')}>
          {row.strategy ? <span className="gt-strategy">{row.strategy}</span> : null}
          {text}
        </span>
      )
    },
    meta: { className: 'gt-reason' },
  }),
]

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    readonly className?: string
  }
}
