import type { RunView } from '../../../store/index.ts'
import { formatCount, formatShare, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { BUDGET_CATEGORIES, BUDGET_LABELS, categoryTokens, usedTokens } from './budgetModel.ts'

function Row(props: {
  readonly label: string
  readonly swatch?: string
  readonly before: number
  readonly after: number
  readonly usable: number
  readonly id?: string
}) {
  const { label, swatch, before, after, usable, id } = props
  const zero = before === 0 && after === 0
  return (
    <tr className={zero ? 'zero' : undefined} data-category={id}>
      <th scope="row">
        {swatch ? <i className={`swatch ${swatch}`} aria-hidden="true" /> : null}
        {label}
      </th>
      <td className="num">{formatCount(before)}</td>
      <td className="num">{formatCount(after)}</td>
      <td className="num">{formatSigned(after - before)}</td>
      <td className="num">
        {formatShare(before, usable)} → {formatShare(after, usable)}
      </td>
    </tr>
  )
}

/** The bars' figures: every category, then the totals and the space that is not context. */
export function BudgetTable({ summary }: { readonly summary: RunView }) {
  const { before, after } = summary.budget
  const { usable, reservedOutput, buffer } = summary.tokens
  const usedBefore = usedTokens(before)
  const usedAfter = usedTokens(after)
  return (
    <table className="table budget-table" data-testid={TID.budgetTable}>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col" className="num">
            Before
          </th>
          <th scope="col" className="num">
            After
          </th>
          <th scope="col" className="num">
            Δ
          </th>
          <th scope="col" className="num">
            % of usable
          </th>
        </tr>
      </thead>
      <tbody>
        {BUDGET_CATEGORIES.map((c) => (
          <Row
            key={c}
            id={c}
            label={BUDGET_LABELS[c]}
            swatch={`cat-${c}`}
            before={categoryTokens(before, c)}
            after={categoryTokens(after, c)}
            usable={usable}
          />
        ))}
      </tbody>
      <tfoot>
        <Row label="Context total" before={usedBefore} after={usedAfter} usable={usable} />
        <Row
          label="Free"
          swatch="seg-free"
          before={Math.max(0, usable - usedBefore)}
          after={Math.max(0, usable - usedAfter)}
          usable={usable}
        />
        {buffer > 0 ? (
          <tr className="reserve-row">
            <th scope="row">
              <i className="swatch seg-buffer" aria-hidden="true" />
              Safety buffer
            </th>
            <td className="num" colSpan={2}>
              {formatCount(buffer)}
            </td>
            <td colSpan={2} className="hint">
              outside the usable window
            </td>
          </tr>
        ) : null}
        <tr className="reserve-row">
          <th scope="row">
            <i className="swatch seg-reserved" aria-hidden="true" />
            Reserved output
          </th>
          <td className="num" colSpan={2}>
            {formatCount(reservedOutput)}
          </td>
          <td colSpan={2} className="hint">
            set aside for the reply, not used
          </td>
        </tr>
      </tfoot>
    </table>
  )
}
