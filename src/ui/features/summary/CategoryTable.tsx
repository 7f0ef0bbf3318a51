import type { TokenSummary } from '../../../store/index.ts'
import { formatCount, formatShare } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { CATEGORY_LABELS, CATEGORY_ORDER } from './categoryLabels.ts'

/** Where the tokens go; empty categories stay listed (dimmed) so the table shape never changes. */
export function CategoryTable({ tokens }: { readonly tokens: TokenSummary }) {
  const max = CATEGORY_ORDER.reduce((m, c) => Math.max(m, tokens.byCategory[c]), 1)
  return (
    <table className="table categories" data-testid={TID.categoryTable}>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col" className="num">
            Tokens
          </th>
          <th scope="col" className="num">
            Share
          </th>
          <th scope="col" className="bar-col">
            <span className="visually-hidden">Relative size</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {CATEGORY_ORDER.map((category) => {
          const value = tokens.byCategory[category]
          return (
            <tr
              key={category}
              className={value === 0 ? 'zero' : undefined}
              data-category={category}
            >
              <th scope="row">{CATEGORY_LABELS[category]}</th>
              <td className="num">{formatCount(value)}</td>
              <td className="num">{formatShare(value, tokens.total)}</td>
              <td className="bar-col">
                {value > 0 ? (
                  <span
                    className={`bar cat-${category}`}
                    style={{ width: `${(value / max) * 100}%` }}
                  />
                ) : null}
              </td>
            </tr>
          )
        })}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td className="num">{formatCount(tokens.total)}</td>
          <td className="num">{tokens.total > 0 ? '100%' : '—'}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  )
}
