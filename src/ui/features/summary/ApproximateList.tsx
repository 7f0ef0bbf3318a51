import type { TokenSummary } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/** Parts priced by a rule (images, opaque payloads), never passed off as exact counts. */
export function ApproximateList({ items }: { readonly items: TokenSummary['approximate'] }) {
  if (items.length === 0) return null
  return (
    <div className="approx" data-testid={TID.approximateList}>
      <h3 className="subhead">≈ priced by rule</h3>
      <ul>
        {items.map((item, index) => (
          <li key={index}>
            <span>{item.what}</span>
            <span className="num">≈ {formatCount(item.tokens)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
