import { useMemo } from 'react'
import { aggregate } from '../../../fleet/aggregate.ts'
import type { FleetRow, Spread } from '../../../fleet/types.ts'
import { FLEET_TID } from './fleetIds.ts'
import { count, pct, short, usd } from './format.ts'

function Figure(props: { label: string; value: string; sub: string; title: string }) {
  return (
    <div className="fleet-figure" title={props.title}>
      <div className="fleet-figure-label">{props.label}</div>
      <div className="fleet-figure-value">{props.value}</div>
      <div className="fleet-figure-sub">{props.sub}</div>
    </div>
  )
}

const spreadLine = (s: Spread, f: (n: number | null) => string) =>
  `med ${f(s.median)} · p90 ${f(s.p90)}`

/**
 * The fleet's figures over the rows shown (the filter applies): totals, then median and p90 per
 * conversation, from src/fleet/aggregate.ts — the same function `evaluate` reports with.
 */
export function FleetAggregates({ rows, failed }: { rows: readonly FleetRow[]; failed: number }) {
  const a = useMemo(() => aggregate(rows, failed), [rows, failed])
  return (
    <div className="fleet-aggregates" data-testid={FLEET_TID.aggregates}>
      <Figure
        label="Conversations"
        value={count(a.conversations)}
        sub={`${a.untouched} unchanged${a.failed > 0 ? ` · ${a.failed} failed` : ''}`}
        title="conversations evaluated (files that failed are not counted)"
      />
      <Figure
        label="Tokens (last call)"
        value={`${short(a.tokensBefore)} → ${short(a.tokensAfter)}`}
        sub={`saved ${pct(a.savedFraction.total)} in all`}
        title={`${count(a.tokensBefore)} → ${count(a.tokensAfter)} tokens`}
      />
      <Figure
        label="Saved / conversation"
        value={`median ${pct(a.savedFraction.median)}`}
        sub={`p90 ${pct(a.savedFraction.p90)} · tokens ${spreadLine(a.saved, short)}`}
        title={`median and p90 over ${a.savedFraction.count} conversations`}
      />
      <Figure
        label="Cost"
        value={
          a.costBefore.count > 0 ? `${usd(a.costBefore.total)} → ${usd(a.costAfter.total)}` : '–'
        }
        sub={`saved ${spreadLine(a.costSaved, usd)}`}
        title={`${a.costBefore.count} of ${a.conversations} conversations priced`}
      />
      <Figure
        label="Removed then used"
        value={count(a.usedLater)}
        sub={`invariants violated in ${a.invariantsViolated}`}
        title="groups the config removed whose content the agent used later"
      />
    </div>
  )
}
