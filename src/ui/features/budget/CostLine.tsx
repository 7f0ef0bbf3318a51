import { useReplay, useReplayPending, useRunSummary } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { formatChange } from './budgetModel.ts'
import { formatUsd } from '../accounting/accountingModel.ts'

/**
 * What the session costs before → after, with the prompt cache modelled call by call: the figure
 * comes with the replay (it needs every call), so it says so while that runs.
 */
export function CostLine() {
  const summary = useRunSummary()
  const replay = useReplay()
  const pending = useReplayPending()
  if (!summary) return null
  const price = summary.accounting.price
  if (!replay) {
    return (
      <p className="hint budget-cost" data-testid={TID.budgetCost} data-state="pending">
        {pending ? 'Cost: replaying the session call by call…' : 'Cost needs the replay.'}
      </p>
    )
  }
  const { cost } = replay
  if (cost.before === null || cost.after === null) {
    return (
      <p className="hint budget-cost" data-testid={TID.budgetCost} data-state="unpriced">
        Cost: no price for {price?.model || 'this model'} — set one under Accounting.
      </p>
    )
  }
  const rewrites = cost.cacheRewrites ?? 0
  const paid = cost.breakEven.filter((b) => b.paysBackAfter !== null)
  const never = cost.breakEven.length - paid.length
  return (
    <p
      className="budget-cost"
      data-testid={TID.budgetCost}
      data-state="ready"
      data-before={cost.before}
      data-after={cost.after}
    >
      <span className="field-label">Session cost</span>{' '}
      <b className="num">
        {formatUsd(cost.before)} → {formatUsd(cost.after)}
      </b>{' '}
      <span className="hint">
        ({formatChange(cost.before, cost.after)}
        {rewrites > 0 ? `; cache re-writes ${formatUsd(rewrites)}` : ''}
        {cost.breakEven.length > 0
          ? `; ${paid.length} compaction${paid.length === 1 ? '' : 's'} paid back${never > 0 ? `, ${never} never did` : ''}`
          : ''}
        ; {price ? `${price.name}${price.overridden ? ' (your prices)' : ''}` : ''},{' '}
        {cost.pricedCalls} calls, prompt cache modelled)
      </span>
    </p>
  )
}
