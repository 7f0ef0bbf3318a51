import {
  Brush,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { RunView } from '../../../store/index.ts'
import type { TimelinePoint } from './timelineModel.ts'
import { stepLine, triggerLine, upstreamLine } from './TimelineMarkers.tsx'
import { TimelineTooltip } from './TimelineTooltip.tsx'

interface DotProps {
  readonly cx?: number
  readonly cy?: number
  readonly payload?: TimelinePoint
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const tickTokens = (value: number) => compact.format(value)

// The dot renderers run for every point of every line (up to 800 × 3): a point without a
// marker renders nothing (an empty <g> was ~2,400 DOM nodes created in the chart's mount, one
// non-interruptible task, in the paste and the first view).

/** A marker on the compacted line where a strategy changed something at that call. */
function firedDot({ cx, cy, payload }: DotProps) {
  if (!payload || payload.fired.length === 0 || cx === undefined || cy === undefined) return null
  return (
    <path
      className="timeline-fired"
      data-testid={TID.timelineFired}
      data-call={payload.call}
      d={`M${cx},${cy - 5}L${cx + 5},${cy}L${cx},${cy + 5}L${cx - 5},${cy}Z`}
    >
      <title>{`Call ${payload.call}: ${payload.fired.join(', ')}`}</title>
    </path>
  )
}

/**
 * Reported usage, as dots over the reconstructed line (only where the transcript reported it); a
 * call whose reconstruction is more than 10 % off is ringed.
 */
function reportedDot({ cx, cy, payload }: DotProps) {
  if (!payload || payload.reported === null || cx === undefined || cy === undefined) return null
  if (payload.flagged)
    return (
      <g className="timeline-flagged" data-testid={TID.timelineFlagged} data-index={payload.index}>
        <title>{`Call ${payload.call}: reconstructed ${formatCount(payload.before)} vs reported ${formatCount(payload.reported)} — over 10 % apart`}</title>
        <circle className="timeline-reported" cx={cx} cy={cy} r={2.5} />
        <circle className="timeline-flag-ring" cx={cx} cy={cy} r={6} />
      </g>
    )
  return (
    <circle
      className="timeline-reported"
      data-testid={TID.timelineReported}
      cx={cx}
      cy={cy}
      r={2.5}
    />
  )
}

/**
 * The last point on the original line: the whole session as it stands (the headline). A reference
 * dot, not the line's `dot`: as that, it ran (and built props) for every point to draw one.
 */
function nowMarker(payload: TimelinePoint) {
  return function NowMarker({ cx, cy }: { readonly cx?: number; readonly cy?: number }) {
    if (cx === undefined || cy === undefined) return <g />
    return (
      <g
        className="timeline-now"
        data-testid={TID.timelineNow}
        data-before={payload.before}
        data-after={payload.after}
      >
        <title>{`Now (next call): ${formatCount(payload.before)} → ${formatCount(payload.after)} — the headline`}</title>
        <circle cx={cx} cy={cy} r={4} />
      </g>
    )
  }
}

interface UsableLineProps {
  readonly x1?: number
  readonly y1?: number
  readonly x2?: number
  readonly y2?: number
}

function usableLine(usable: number) {
  return function UsableLine({ x1, y1, x2, y2 }: UsableLineProps) {
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return <g />
    return (
      <g data-testid={TID.timelineUsable} data-usable={usable}>
        <line className="timeline-usable" x1={x1} y1={y1} x2={x2} y2={y2} />
        <text className="timeline-usable-label" x={x2 - 4} y={y1 - 5} textAnchor="end">
          usable window {formatCount(usable)}
        </text>
      </g>
    )
  }
}

/** In cost mode: a ring where the config made the provider write cached tokens again. */
function rewriteDot({ cx, cy, payload }: DotProps) {
  if (!payload || payload.rewrite <= 0 || cx === undefined || cy === undefined)
    return firedDot({ cx, cy, payload })
  return (
    <g className="timeline-rewrite" data-testid={TID.timelineRewrite} data-call={payload.call}>
      <title>{`Call ${payload.call}: ${formatCount(payload.rewrite)} cached tokens written again (${payload.fired.join(', ')})`}</title>
      <rect x={cx - 4} y={cy - 4} width={8} height={8} />
    </g>
  )
}

const noPoints = (): number[] => []

const usd = (value: number) => (value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(3)}`)

interface ChartProps {
  /** Context tokens per call, or what each call costs (USD, prompt cache modelled). */
  readonly mode: 'tokens' | 'cost'
  readonly points: readonly TimelinePoint[]
  readonly usable: number
  readonly hasReported: boolean
  readonly triggers: RunView['triggers']
  /** The brushed calls (indexes into `points`); the whole series when nothing is brushed. */
  readonly brush: { readonly start: number; readonly end: number }
  readonly onBrush: (start: number, end: number) => void
  /** A click on the chart: the call under the pointer. */
  readonly onPick: (point: TimelinePoint) => void
}

/**
 * Context tokens per model call: original vs compacted, the usable window and trigger levels,
 * where strategies fired and where the source system compacted; a brush below picks a range.
 */
export function TimelineChart(props: ChartProps) {
  const { mode, points, usable, hasReported, triggers, brush, onBrush, onPick } = props
  const cost = mode === 'cost'
  const top = (max: number) => (cost ? max * 1.1 : Math.ceil(Math.max(max, usable) * 1.05))
  const upstream = points.filter((p) => p.upstream.length > 0)
  const steps = points.filter((p) => p.step !== null)
  const now = cost ? undefined : points.filter((p) => p.now).at(-1)
  return (
    <ResponsiveContainer width="100%" height="100%" minHeight={60}>
      <ComposedChart
        data={points as TimelinePoint[]}
        margin={{ top: 12, right: 16, bottom: 4, left: 4 }}
        onClick={(state) => {
          const call = Number(state.activeLabel)
          // The series may be thinned: find the point by its call number, not its position.
          const point = Number.isFinite(call) ? points.find((p) => p.call === call) : undefined
          if (point) onPick(point)
        }}
      >
        {/* No vertical grid lines are drawn, and none are computed: recharts' default generator
            still worked out the x ticks for them, measuring each label in the DOM. */}
        <CartesianGrid
          className="timeline-grid"
          vertical={false}
          verticalCoordinatesGenerator={noPoints}
        />
        {/* interval={0}: every tick of the scale (about five) is drawn, so recharts does not measure
            each label in the DOM to drop overlapping ones (a forced layout per label, inside the
            render of a paste or an edit; five labels never overlap on this chart). */}
        <XAxis
          dataKey="call"
          type="number"
          domain={['dataMin', 'dataMax']}
          allowDecimals={false}
          interval={0}
        />
        <YAxis domain={[0, top]} tickFormatter={cost ? usd : tickTokens} width={48} interval={0} />
        <Tooltip content={<TimelineTooltip />} isAnimationActive={false} />
        {cost ? null : (
          <ReferenceLine y={usable} ifOverflow="extendDomain" shape={usableLine(usable)} />
        )}
        {(cost ? [] : triggers).map((t) => (
          <ReferenceLine
            key={`trigger-${t.step}`}
            y={t.tokens}
            ifOverflow="extendDomain"
            shape={triggerLine(t)}
          />
        ))}
        {upstream.map((p) => (
          <ReferenceLine key={`upstream-${p.call}`} x={p.call} shape={upstreamLine(p)} />
        ))}
        {steps.map((p) => (
          <ReferenceLine key={`step-${p.call}`} x={p.call} shape={stepLine(p)} />
        ))}
        <Line
          className="timeline-line-original"
          name="original"
          dataKey={cost ? 'costBefore' : 'before'}
          stroke="var(--timeline-original)"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          className="timeline-line-compacted"
          name="compacted"
          dataKey={cost ? 'costAfter' : 'after'}
          stroke="var(--timeline-compacted)"
          strokeWidth={1.5}
          dot={cost ? rewriteDot : firedDot}
          activeDot={{ r: 3 }}
          isAnimationActive={false}
        />
        {now ? <ReferenceDot x={now.call} y={now.before} r={4} shape={nowMarker(now)} /> : null}
        {hasReported && !cost ? (
          <Line
            className="timeline-line-reported"
            name="reported"
            dataKey="reported"
            stroke="none"
            dot={reportedDot}
            activeDot={false}
            legendType="none"
            isAnimationActive={false}
          />
        ) : null}
        {points.length > 1 ? (
          <Brush
            className="timeline-brush"
            dataKey="call"
            height={24}
            travellerWidth={8}
            stroke="var(--accent)"
            startIndex={brush.start}
            endIndex={brush.end}
            ariaLabel="Brush: pick a range of calls to filter the table"
            onChange={(range) => onBrush(range.startIndex, range.endIndex)}
          />
        ) : null}
      </ComposedChart>
    </ResponsiveContainer>
  )
}
