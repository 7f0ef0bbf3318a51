import type { CompareSide } from '../../../store/index.ts'
import { formatCount, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { RiskFact } from '../risk/RiskFact.tsx'

function Side({ side, id, label }: { side: CompareSide; id: 'a' | 'b'; label: string }) {
  return (
    <div
      className="compare-side"
      data-testid={TID.compareSide}
      data-side={id}
      data-after={side.after}
      data-changes={side.changes}
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
