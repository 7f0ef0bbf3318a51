import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import type { TimelinePoint } from './timelineModel.ts'
import { TimelineTooltip } from './TimelineTooltip.tsx'

interface DotProps {
  readonly cx?: number
  readonly cy?: number
  readonly payload?: TimelinePoint
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const tickTokens = (value: number) => compact.format(value)

/** A marker on the compacted line where a strategy changed something at that call. */
function firedDot({ cx, cy, payload }: DotProps) {
  if (!payload || payload.fired.length === 0 || cx === undefined || cy === undefined) return <g />
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

/** Reported usage, as faint points (only where the transcript reported it). */
function reportedDot({ cx, cy, payload }: DotProps) {
  if (!payload || payload.reported === null || cx === undefined || cy === undefined) return <g />
  return (
    <circle
      className="timeline-reported"
      data-testid={TID.timelineReported}
      cx={cx}
      cy={cy}
      r={2}
    />
  )
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

interface ChartProps {
  readonly points: readonly TimelinePoint[]
  readonly usable: number
  readonly hasReported: boolean
}

/** Context tokens per model call: original vs compacted, the usable window, where things fired. */
export function TimelineChart({ points, usable, hasReported }: ChartProps) {
  const top = (max: number) => Math.ceil(Math.max(max, usable) * 1.05)
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart
        data={points as TimelinePoint[]}
        margin={{ top: 12, right: 16, bottom: 4, left: 4 }}
      >
        <CartesianGrid className="timeline-grid" vertical={false} />
        <XAxis dataKey="call" type="number" domain={[1, 'dataMax']} allowDecimals={false} />
        <YAxis domain={[0, top]} tickFormatter={tickTokens} width={48} />
        <Tooltip content={<TimelineTooltip />} isAnimationActive={false} />
        <ReferenceLine y={usable} ifOverflow="extendDomain" shape={usableLine(usable)} />
        <Line
          className="timeline-line-original"
          name="original"
          dataKey="before"
          stroke="var(--timeline-original)"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          className="timeline-line-compacted"
          name="compacted"
          dataKey="after"
          stroke="var(--timeline-compacted)"
          strokeWidth={1.5}
          dot={firedDot}
          activeDot={{ r: 3 }}
          isAnimationActive={false}
        />
        {hasReported ? (
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
      </ComposedChart>
    </ResponsiveContainer>
  )
}
