import type { CompareSide } from '../../../store/index.ts'
import { formatCount, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { formatUsd } from '../accounting/accountingModel.ts'
import { RiskFact } from '../risk/RiskFact.tsx'

function Side({ side, id, label }: { side: CompareSide; id: 'a' | 'b'; label: string }) {
  return (
    <div
      className="compare-side"
      data-testid={TID.compareSide}
      data-side={id}
      data-after={side.after}
      data-changes={side.changes}
      data-cost-after={side.cost.after ?? ''}
    >
      <h3 className="subhead">
        {id.toUpperCase()} · {label}
        {label.endsWith(side.configName) ? null : (
          <span className="hint"> ({side.configName})</span>
        )}
      </h3>
      <div className="compare-figure">
        {formatCount(side.before)} → <b>{formatCount(side.after)}</b> tokens (
        {formatSigned(side.after - side.before)})
      </div>
      <div className="compare-figure" data-testid={TID.compareCost}>
        {side.cost.before !== null && side.cost.after !== null ? (
          <>
            {formatUsd(side.cost.before)} → <b>{formatUsd(side.cost.after)}</b> per session
            {side.cost.cacheRewrites ? (
              <span className="hint"> (cache re-writes {formatUsd(side.cost.cacheRewrites)})</span>
            ) : null}
          </>
        ) : (
          <span className="hint">cost: no price for this model</span>
        )}
      </div>
      <div className="compare-facts">
        <span className="hint">
          {formatCount(side.changes)} {side.changes === 1 ? 'change' : 'changes'}
        </span>
        <span className={side.invariantsOk ? 'pill high' : 'pill low'}>
          {side.invariantsOk ? 'all invariants hold' : 'invariants failing'}
        </span>
        <RiskFact risk={side.risk} testId={TID.compareUsedLater} />
      </div>
    </div>
  )
}

/** The two configs' headline figures, side by side. */
export function CompareSides(props: {
  readonly a: CompareSide
  readonly b: CompareSide
  readonly labels: { readonly a: string; readonly b: string }
}) {
  return (
    <div className="compare-sides">
      <Side side={props.a} id="a" label={props.labels.a} />
      <Side side={props.b} id="b" label={props.labels.b} />
    </div>
  )
}
