import { useMemo } from 'react'
import { aggregate } from '../../../fleet/aggregate.ts'
import type { FleetRow, Spread } from '../../../fleet/types.ts'
import { FLEET_TID } from './fleetIds.ts'
import { count, pct, usd } from './format.ts'

function Figure(props: { label: string; value: string; sub?: string }) {
  return (
    <div className="fleet-figure">
      <div className="fleet-figure-label">{props.label}</div>
      <div className="fleet-figure-value">{props.value}</div>
      {props.sub ? <div className="fleet-figure-sub">{props.sub}</div> : null}
    </div>
  )
}

const spreadLine = (s: Spread, f: (n: number | null) => string) =>
  `median ${f(s.median)} · p90 ${f(s.p90)}`

/** The fleet's figures: totals, then median and p90 per conversation (src/fleet/aggregate.ts). */
export function FleetAggregates({ rows, failed }: { rows: readonly FleetRow[]; failed: number }) {
  const a = useMemo(() => aggregate(rows, failed), [rows, failed])
  return (
    <div className="fleet-aggregates" data-testid={FLEET_TID.aggregates}>
      <Figure
        label="Conversations"
        value={count(a.conversations)}
        sub={`${a.untouched} unchanged${a.failed > 0 ? ` · ${a.failed} failed` : ''}`}
      />
      <Figure
        label="Tokens (last call)"
        value={`${count(a.tokensBefore)} → ${count(a.tokensAfter)}`}
        sub={`saved ${pct(a.savedFraction.total)} in all`}
      />
      <Figure
        label="Saved per conversation"
        value={spreadLine(a.savedFraction, pct)}
        sub={`tokens: ${spreadLine(a.saved, count)}`}
      />
      <Figure
        label="Cost"
        value={
          a.costBefore.count > 0 ? `${usd(a.costBefore.total)} → ${usd(a.costAfter.total)}` : '–'
        }
        sub={`${a.costBefore.count} priced · saved ${spreadLine(a.costSaved, usd)}`}
      />
      <Figure
        label="Risk"
        value={`${count(a.usedLater)} removed then used`}
        sub={`invariants violated in ${a.invariantsViolated}`}
      />
    </div>
  )
}
