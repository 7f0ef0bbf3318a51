import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react'
import type { FleetRow } from '../../../fleet/types.ts'
import { FLEET_TID } from './fleetIds.ts'
import { BinChart, SizeScatter } from './FleetSvgCharts.tsx'
import {
  firstCompactionHistogram,
  savingsHistogram,
  sizeVsSavings,
  type Bin,
  type FleetLine,
  type ScatterPoint,
} from './fleetModel.ts'

/** Charts are the costliest thing to draw: while a fleet runs they follow at most every second. */
const CHART_EVERY_MS = 1000

function useThrottled<T>(value: T, running: boolean): T {
  const [shown, setShown] = useState(value)
  const latest = useRef(value)
  useEffect(() => {
    latest.current = value
    // Not running (the run's end, a filter): follow at once, still as a transition, so the
    // charts never lengthen the task that commits the rows.
    if (!running) startTransition(() => setShown(value))
  }, [value, running])
  useEffect(() => {
    if (!running) return
    // A transition: React draws the charts in interruptible slices, not one long task.
    const timer = setInterval(() => startTransition(() => setShown(latest.current)), CHART_EVERY_MS)
    return () => clearInterval(timer)
  }, [running])
  return shown
}

/**
 * Distributions over the fleet: how much each conversation saved, size against savings (one dot
 * per conversation, sampled to 2,000), and after how many calls the config first changed anything.
 * No animation: a re-run redraws them many times.
 */
export function FleetCharts(props: {
  rows: readonly FleetRow[]
  lines: readonly FleetLine[]
  running: boolean
}) {
  const { rows, lines } = useThrottled(
    useMemo(() => ({ rows: props.rows, lines: props.lines }), [props.rows, props.lines]),
    props.running,
  )
  const savings = useMemo(() => savingsHistogram(rows), [rows])
  const first = useMemo(() => firstCompactionHistogram(rows), [rows])
  const scatter = useMemo(() => sizeVsSavings(lines), [lines])
  return <ChartsBody savings={savings} first={first} scatter={scatter} />
}

/** Memoised on its three series: a re-render of the fleet that leaves them alone draws nothing. */
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
      <BinChart
        title="Saved per conversation (last call)"
        bins={savings}
        fill="var(--accent)"
        labelEvery={2}
      />
      <SizeScatter title="Size (peak context) vs saved %" points={scatter} fill="var(--accent)" />
      <BinChart
        title="Calls until the first compaction"
        bins={first}
        fill="var(--timeline-fired, #e11d48)"
        labelEvery={2}
      />
    </div>
  )
})
