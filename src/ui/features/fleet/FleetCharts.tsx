import { memo, startTransition, useEffect, useMemo, useState } from 'react'
import {
  Bar,
  BarChart,
  CartesianGrid,
  getNiceTickValues,
  ResponsiveContainer,
  ScatterChart,
  Tooltip,
  useXAxisScale,
  useYAxisScale,
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

/** The three series, one per chart, released to the charts one at a time. */
interface Series {
  readonly savings: Bin[]
  readonly scatter: ScatterPoint[]
  readonly first: Bin[]
}
const SERIES_KEYS = ['savings', 'scatter', 'first'] as const

/**
 * What the charts show: while a fleet runs they hold the last finished state; once the run ends
 * they follow one chart per task, each as a transition. recharts measures and lays out a chart
 * synchronously in its commit (60–320 ms tasks measured while 200 files ran with a redraw every
 * second), and the three charts redrawn in one transition made one task over 100 ms at the run's
 * end; a commit cannot be split, but three commits can be three tasks. Each next chart is
 * scheduled from the effect after the previous one committed, in a timer of its own, so React
 * cannot batch two of them into one render.
 */
function useStaggered(series: Series, running: boolean): Partial<Series> {
  // Nothing while a run is under way, not even a first mount: mounting the three charts on the
  // run's empty series at its start cost three tasks of 60–90 ms (CDP profile, 50 files dropped
  // at load 8, recharts' grid and axes) for charts redrawn when the run ends anyway. Until then
  // each is an empty box of its height, so nothing moves when they arrive.
  const [shown, setShown] = useState<Partial<Series>>({})
  useEffect(() => {
    const next = running ? undefined : SERIES_KEYS.find((k) => shown[k] !== series[k])
    if (!next) return
    const timer = setTimeout(() =>
      startTransition(() => setShown((s) => ({ ...s, [next]: series[next] }))),
    )
    return () => clearTimeout(timer)
  }, [series, running, shown])
  return shown
}

/**
 * How much of a chart is drawn: 0 nothing (no series yet), 1 the chart with both axes hidden (its
 * store, surface and measured container), 2 the x axis shown, 3 the y axis, 4 the grid, 5 the
 * series. The chart with its x axis in one part was the largest end-of-run task, 39–47 ms of
 * main-thread CPU (Chromium trace, 200 files, each route); split, the largest is 25–30 ms. One
 * recharts chart mounted whole was one task of 60–140 ms (CDP profile, 50
 * files at load 8–10: CartesianGrid 37 ms, the axes 16 ms, the series and the store); each part
 * is added in a task of its own after the previous commit, so no one commit holds them all. The
 * series comes last: every part dispatches to the chart's own store, whose subscribers re-render
 * synchronously, and with the series drawn first each later part re-rendered all its points
 * (recharts' ScatterPoint 47 ms over the end-of-run tasks, 200 files dropped at load 12). A
 * chart already whole takes new data in one commit (an update, not a mount).
 */
function useParts(ready: boolean): number {
  const [parts, setParts] = useState(0)
  useEffect(() => {
    if (!ready || parts >= 5) return
    const timer = setTimeout(() => startTransition(() => setParts((n) => n + 1)))
    return () => clearTimeout(timer)
  }, [ready, parts])
  return ready ? parts : 0
}

/**
 * Whether the pointer has been over the chart. The tooltip mounts only then: it subscribes to
 * the chart's store (pointer sync, the active index) and was part of the end-of-run commits for
 * a reader who had not yet touched the chart; mounted on the first hover it costs one small
 * commit while the page is idle.
 */
function useHovered(): readonly [boolean, () => void] {
  const [hovered, setHovered] = useState(false)
  return [hovered, () => setHovered(true)]
}

/**
 * A histogram's tooltip: the axis shows each bin's short `tick`, the tooltip its whole range.
 * A function, not a component: recharts finds its Tooltip among the chart's direct children by type.
 */
function binTooltip() {
  return (
    <Tooltip
      formatter={(v) => [v, 'conversations']}
      labelFormatter={(tick, payload) => (payload[0]?.payload as Bin | undefined)?.label ?? tick}
      isAnimationActive={false}
    />
  )
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const HEIGHT = 150

/** A chart's frame; until its series first arrives, an empty box of the same height. */
function Chart(props: { title: string; children: React.ReactElement | null; onHover: () => void }) {
  return (
    <figure className="fleet-chart" onPointerEnter={props.onHover}>
      <figcaption>{props.title}</figcaption>
      {props.children ? (
        <ResponsiveContainer width="100%" height={HEIGHT}>
          {props.children}
        </ResponsiveContainer>
      ) : (
        <div style={{ height: HEIGHT }} />
      )}
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
  const savings = useMemo(() => savingsHistogram(props.rows), [props.rows])
  const first = useMemo(() => firstCompactionHistogram(props.rows), [props.rows])
  const scatter = useMemo(() => sizeVsSavings(props.lines), [props.lines])
  const series = useMemo(() => ({ savings, scatter, first }), [savings, scatter, first])
  const shown = useStaggered(series, props.running)
  return (
    <div className="fleet-charts-wrap" aria-busy={props.running}>
      {props.running ? (
        <p className="fleet-charts-held" data-testid={FLEET_TID.chartsHeld}>
          Charts follow when the run ends; the table updates as each file finishes.
        </p>
      ) : null}
      <div className="fleet-charts" data-testid={FLEET_TID.charts}>
        <HistogramChart
          title="Saved % per conversation (last call)"
          fill="var(--accent)"
          data={shown.savings}
        />
        <SizeChart data={shown.scatter} />
        <HistogramChart
          title="Calls until the first compaction"
          fill="var(--timeline-fired, #e11d48)"
          data={shown.first}
        />
      </div>
    </div>
  )
}

/**
 * A histogram's count axis, worked out once per series: the same ticks recharts would choose for
 * its default domain [0, auto] (its own `getNiceTickValues` over [0, largest count], 5 ticks, whole
 * numbers), given with the domain they span and `niceTicks="none"`. Left to recharts, they were
 * computed again (in decimal.js arithmetic) on every update of the chart's store, and each part
 * added at the run's end is several updates. An empty series keeps recharts' defaults.
 */
const countAxes = new WeakMap<readonly Bin[], CountAxis>()
type CountAxis =
  { ticks: number[]; domain: [number, number]; niceTicks: 'none' } | Record<string, never>
function countAxis(data: readonly Bin[]): CountAxis {
  let axis = countAxes.get(data)
  if (!axis) {
    const max = data.reduce((m, b) => Math.max(m, b.count), 0)
    const ticks = max > 0 ? getNiceTickValues([0, max], 5, false, 'adaptive') : []
    const top = ticks[ticks.length - 1]
    axis =
      top !== undefined && ticks[0] === 0
        ? { ticks, domain: [0, Math.max(max, top)], niceTicks: 'none' }
        : {}
    countAxes.set(data, axis)
  }
  return axis
}

/**
 * One component per chart, memoised on its own series: an unchanged series skips recharts. Every
 * axis has a numeric `interval` (and the scatter's axes their ticks): with recharts' default
 * (`preserveEnd`) it measures each tick label in the DOM to drop overlapping ones, and the grid
 * does it again — 106 + 67 ms of the charts' end-of-run tasks (CDP profile, 200 files picked,
 * unminified build). The scatter's grid has no vertical lines, like the bar charts'. Its axes have
 * `niceTicks="none"`: with ticks and domain given, recharts still computed "nice" ticks for the
 * fixed [0, 100] domain (getTickValuesFixedDomain, in decimal.js arithmetic) on each store
 * update, and only to throw them away (given ticks win, and they cannot widen a fixed domain):
 * 20 ms of the picked route's longest end-of-run commit (96 ms sampled, CDP profile, load 7).
 */
/** A histogram: the saved-% and first-compaction charts differ only in title and colour. */
const HistogramChart = memo(function HistogramChart(props: {
  title: string
  fill: string
  data: Bin[] | undefined
}) {
  const { title, fill, data } = props
  const parts = useParts(data !== undefined)
  const [hovered, onHover] = useHovered()
  return (
    <Chart title={title} onHover={onHover}>
      {data && parts > 0 ? (
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          {parts > 3 ? <CartesianGrid strokeDasharray="3 3" vertical={false} /> : null}
          <XAxis dataKey="tick" tick={{ fontSize: 10 }} interval={1} hide={parts < 2} />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 10 }}
            interval={0}
            hide={parts < 3}
            {...countAxis(data)}
          />
          {hovered && parts > 4 ? binTooltip() : null}
          {parts > 4 ? <Bar dataKey="count" fill={fill} isAnimationActive={false} /> : null}
        </BarChart>
      ) : null}
    </Chart>
  )
})

/**
 * Every dot in one component, placed with the chart's own scales (recharts' axis-scale hooks),
 * each a plain circle with its figures as a native tooltip. Drawn as recharts' `Scatter`, each
 * point was several components (ScatterPoint, Shape, ScatterSymbol, a z-index layer), and the
 * chart's store re-rendered them all, synchronously, in each of the animation frames after the
 * series mounted: two renders of 38–48 ms at the run's end (CDP profile, 200 files picked,
 * unminified build, load 12), the longest end-of-run tasks of the picked route.
 */
function Dots({ data }: { data: readonly ScatterPoint[] }) {
  const x = useXAxisScale()
  const y = useYAxisScale()
  if (!x || !y) return null
  return (
    <g className="fleet-dots" fill="var(--accent)">
      {data.map((p) => (
        <circle key={p.id} cx={x(p.size)} cy={y(p.saved)} r={3}>
          <title>{`${compact.format(p.size)} peak tokens, saved ${p.saved} %`}</title>
        </circle>
      ))}
    </g>
  )
}

const PERCENT_TICKS = [0, 25, 50, 75, 100]
/** The scatter has no recharts tooltip (its dots carry their own), so hovering mounts nothing. */
const noHover = () => {}

/**
 * Powers of ten around the sizes (at least two): the log axis's ticks and its domain, given so
 * recharts measures no label.
 */
function powersOfTen(data: readonly ScatterPoint[]): number[] {
  let lo = Infinity
  let hi = 0
  for (const p of data) {
    lo = Math.min(lo, p.size)
    hi = Math.max(hi, p.size)
  }
  const out: number[] = []
  if (!(hi > 0)) return out
  const top = Math.max(Math.ceil(Math.log10(hi)), Math.floor(Math.log10(lo)) + 1)
  for (let e = Math.floor(Math.log10(lo)); e <= top; e++) out.push(10 ** e)
  return out
}

const SizeChart = memo(function SizeChart({ data }: { data: ScatterPoint[] | undefined }) {
  const parts = useParts(data !== undefined)
  const axis = useMemo(() => {
    const ticks = data ? powersOfTen(data) : []
    const lo = ticks[0]
    const hi = ticks[ticks.length - 1]
    return lo !== undefined && hi !== undefined && lo < hi
      ? { ticks, domain: [lo, hi] as const }
      : { ticks: undefined, domain: ['auto', 'auto'] as const }
  }, [data])
  return (
    <Chart title="Size (peak context) vs saved %" onHover={noHover}>
      {data && parts > 0 ? (
        <ScatterChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          {parts > 3 ? <CartesianGrid strokeDasharray="3 3" vertical={false} /> : null}
          <XAxis
            dataKey="size"
            type="number"
            scale="log"
            domain={axis.domain}
            ticks={axis.ticks}
            niceTicks="none"
            interval={0}
            tickFormatter={(v: number) => compact.format(v)}
            tick={{ fontSize: 10 }}
            name="peak tokens"
            hide={parts < 2}
          />
          <YAxis
            dataKey="saved"
            type="number"
            domain={[0, 100]}
            ticks={PERCENT_TICKS}
            niceTicks="none"
            interval={0}
            tick={{ fontSize: 10 }}
            name="saved %"
            unit="%"
            hide={parts < 3}
          />
          {parts > 4 ? <Dots data={data} /> : null}
        </ScatterChart>
      ) : null}
    </Chart>
  )
})
