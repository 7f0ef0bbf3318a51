import type { KeyboardEvent } from 'react'
import { useSelectedGroup, useViewActions } from '../../../store/index.ts'
import type { CompareDifference } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { UsedLaterMark } from '../risk/UsedLaterMark.tsx'
import { MAX_ROWS } from './compareModel.ts'

type Decided = CompareDifference['a']

function SideCells({ side }: { readonly side: Decided }) {
  return (
    <>
      <td>
        <span className={`pill gt-status ${side.status}`}>{side.status}</span>
        {side.usedLater ? <UsedLaterMark /> : null}
      </td>
      <td className="num">{formatCount(side.after)}</td>
      <td className="compare-reason" title={side.strategy}>
        {side.reason}
      </td>
    </>
  )
}

/**
 * The groups the two configs decide differently about, in conversation order. Click (or Enter)
 * selects the group and opens its detail. At most `MAX_ROWS` are drawn: a long list says so.
 */
export function DiffTable({ differing }: { readonly differing: readonly CompareDifference[] }) {
  const selected = useSelectedGroup()
  const { selectGroup } = useViewActions()
  const shown = differing.slice(0, MAX_ROWS)
  const select = (id: string) => selectGroup(id, { open: true })
  const onKey = (event: KeyboardEvent, id: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      select(id)
    }
  }
  if (differing.length === 0) {
    return (
      <p className="empty" data-testid={TID.compareTable} data-count={0}>
        Both configs decide the same about every group.
      </p>
    )
  }
  return (
    <div className="compare-table-wrap">
      <p className="hint">
        {formatCount(differing.length)} {differing.length === 1 ? 'group differs' : 'groups differ'}
        {differing.length > MAX_ROWS
          ? ` · showing the first ${formatCount(MAX_ROWS)} (in conversation order)`
          : ''}
      </p>
      <div className="compare-scroll">
        <table
          className="compare-table"
          data-testid={TID.compareTable}
          data-count={differing.length}
        >
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Kind</th>
              <th>A status</th>
              <th className="num">A after</th>
              <th>A reason</th>
              <th>B status</th>
              <th className="num">B after</th>
              <th>B reason</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr
                key={d.groupId}
                className="compare-row"
                tabIndex={0}
                aria-selected={d.groupId === selected}
                onClick={() => select(d.groupId)}
                onKeyDown={(e) => onKey(e, d.groupId)}
                data-testid={TID.compareRow}
                data-group={d.groupId}
              >
                <td className="num">{d.index}</td>
                <td>{d.kind}</td>
                <SideCells side={d.a} />
                <SideCells side={d.b} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
