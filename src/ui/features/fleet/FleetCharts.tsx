import { memo, startTransition, useEffect, useMemo, useState } from 'react'
import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import type { FleetRow } from '../../../fleet/types.ts'
import { FLEET_TID } from './fleetIds.ts'
import {
  firstCompactionHistogram,
  savingsHistogram,
  sizeVsSavings,
  type Bin,
  type FleetLine,
  type ScatterPoint,
} from './fleetModel.ts'

/**
 * What the charts show: while a fleet runs they hold the last finished state and follow once the
 * run ends (as a transition, so they never lengthen the task that commits the last rows).
 * recharts measures and lays out every chart on each draw (60–320 ms tasks measured while 200
 * files ran with a redraw every second); rows still land progressively in the table.
 */
function useHeldWhileRunning<T>(value: T, running: boolean): T {
  const [shown, setShown] = useState(value)
  useEffect(() => {
    if (!running) startTransition(() => setShown(value))
  }, [value, running])
  return shown
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const HEIGHT = 150

function Chart(props: { title: string; children: React.ReactElement }) {
  return (
    <figure className="fleet-chart">
      <figcaption>{props.title}</figcaption>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        {props.children}
      </ResponsiveContainer>
    </figure>
  )
}

/**
 * Distributions over the fleet: how much each conversation saved, size against savings (one dot
 * per conversation, sampled to 2,000), and after how many calls the config first changed anything.
 * No animation. While a run is under way they show the last finished state, marked as such.
 */
export function FleetCharts(props: {
  rows: readonly FleetRow[]
  lines: readonly FleetLine[]
  running: boolean
}) {
  const { rows, lines } = useHeldWhileRunning(
    useMemo(() => ({ rows: props.rows, lines: props.lines }), [props.rows, props.lines]),
    props.running,
  )
  const savings = useMemo(() => savingsHistogram(rows), [rows])
  const first = useMemo(() => firstCompactionHistogram(rows), [rows])
  const scatter = useMemo(() => sizeVsSavings(lines), [lines])
  return (
    <div className="fleet-charts-wrap" aria-busy={props.running}>
      {props.running ? (
        <p className="fleet-charts-held" data-testid={FLEET_TID.chartsHeld}>
          Charts follow when the run ends; the table updates as each file finishes.
        </p>
      ) : null}
      <ChartsBody savings={savings} first={first} scatter={scatter} />
    </div>
  )
}

/** Memoised on its three series: a re-render of the fleet that leaves them alone skips recharts. */
const ChartsBody = memo(function ChartsBody({
  savings,
  first,
  scatter,
}: {
  savings: readonly Bin[]
  first: readonly Bin[]
  scatter: readonly ScatterPoint[]
}) {
  return (
    <div className="fleet-charts" data-testid={FLEET_TID.charts}>
      <Chart title="Saved per conversation (last call)">
        <BarChart data={savings} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 10 }} interval={1} />
          <YAxis allowDecimals={false} tick={{ fontSize: 10 }} />
          <Tooltip formatter={(v) => [v, 'conversations']} isAnimationActive={false} />
          <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </Chart>
      <Chart title="Size (peak context) vs saved %">
        <ScatterChart margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="size"
            type="number"
            scale="log"
            domain={['auto', 'auto']}
            tickFormatter={(v: number) => compact.format(v)}
            tick={{ fontSize: 10 }}
            name="peak tokens"
          />
          <YAxis
            dataKey="saved"
            type="number"
            domain={[0, 100]}
            tick={{ fontSize: 10 }}
            name="saved %"
            unit="%"
          />
          <Tooltip cursor={{ strokeDasharray: '3 3' }} isAnimationActive={false} />
          <Scatter data={scatter} fill="var(--accent)" isAnimationActive={false} />
        </ScatterChart>
      </Chart>
      <Chart title="Calls until the first compaction">
        <BarChart data={first} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 10 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 10 }} />
          <Tooltip formatter={(v) => [v, 'conversations']} isAnimationActive={false} />
          <Bar dataKey="count" fill="var(--timeline-fired, #e11d48)" isAnimationActive={false} />
        </BarChart>
      </Chart>
    </div>
  )
})
