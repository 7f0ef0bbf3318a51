import { memo } from 'react'
import type { RunView } from '../../../store/index.ts'
import type { TimelineGeometry } from './timelineGeometry.ts'
import type { TimelinePoint } from './timelineModel.ts'
import {
  FiredDot,
  NowMarker,
  ReportedDot,
  RewriteDot,
  StepLine,
  shortTriggerLabel,
  TriggerLine,
  UpstreamLine,
  UsableLine,
} from './TimelineMarkers.tsx'
import { placeLineLabels, spacedMarkers } from './timelineScale.ts'

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const tickTokens = (value: number) => compact.format(value)
const usd = (value: number) => (value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(3)}`)
const callLabel = new Intl.NumberFormat('en-US')

interface PlotProps {
  readonly geometry: TimelineGeometry
  readonly mode: 'tokens' | 'cost'
  readonly points: readonly TimelinePoint[]
  readonly usable: number
  readonly hasReported: boolean
  readonly triggers: RunView['triggers']
}

/** Grid lines and both axes with their ticks (no text is measured: the labels are short). */
function Axes({ geometry, cost }: { readonly geometry: TimelineGeometry; readonly cost: boolean }) {
  const { layout, x, y } = geometry
  const { left, right, top, bottom } = layout
  const format = cost ? usd : tickTokens
  return (
    <>
      <g className="timeline-grid">
        {geometry.yTicks.map((t) => (
          <line key={t} x1={left} x2={right} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="timeline-axis timeline-axis-y">
        <line className="timeline-axis-line" x1={left} x2={left} y1={top} y2={bottom} />
        {geometry.yTicks.map((t) => (
          <g key={t}>
            <line className="timeline-axis-tick" x1={left - 6} x2={left} y1={y(t)} y2={y(t)} />
            <text
              className="timeline-axis-label"
              x={left - 8}
              y={y(t)}
              dy="0.355em"
              textAnchor="end"
            >
              {format(t)}
            </text>
          </g>
        ))}
      </g>
      <g className="timeline-axis timeline-axis-x">
        <line className="timeline-axis-line" x1={left} x2={right} y1={bottom} y2={bottom} />
        {geometry.xTicks.map((t) => (
          <g key={t}>
            <line className="timeline-axis-tick" x1={x(t)} x2={x(t)} y1={bottom} y2={bottom + 6} />
            <text
              className="timeline-axis-label"
              x={x(t)}
              y={bottom + 8}
              dy="0.71em"
              textAnchor="middle"
            >
              {callLabel.format(t)}
            </text>
          </g>
        ))}
      </g>
    </>
  )
}

/**
 * Everything that does not follow the pointer: axes, reference lines, the two series (one path
 * each) and the markers. Memoised: hovering re-renders only the cursor and the tooltip.
 */
export const TimelinePlot = memo(function TimelinePlot(props: PlotProps) {
  const { geometry, mode, points, usable, hasReported, triggers } = props
  const { layout, x, y, afterValues } = geometry
  const { left, right, top, bottom } = layout
  const cost = mode === 'cost'
  const now = cost ? undefined : points.filter((p) => p.now).at(-1)
  const at = (p: TimelinePoint) => x(p.call)
  // Markers on the compacted line: a strategy fired, and in cost mode a cache re-write (every
  // one kept: they are few). Fired markers are spaced: thousands would overlap as one smear.
  const onLine = points.filter((_, i) => afterValues[i] !== null && afterValues[i] !== undefined)
  const rewrites = cost ? onLine.filter((p) => p.rewrite > 0) : []
  const fired = spacedMarkers(
    onLine.filter((p) => p.fired.length > 0 && !(cost && p.rewrite > 0)),
    at,
  )
  const reported =
    hasReported && !cost
      ? [
          ...points.filter((p) => p.flagged && p.reported !== null),
          ...spacedMarkers(
            points.filter((p) => !p.flagged && p.reported !== null),
            at,
          ),
        ]
      : []
  const shownTriggers = cost ? [] : triggers
  const labels = placeLineLabels(
    shownTriggers.map((t) => y(t.tokens)),
    shownTriggers.map((t) => shortTriggerLabel(t).length),
    left,
  )
  return (
    <g className="timeline-plot">
      <Axes geometry={geometry} cost={cost} />
      {cost ? null : <UsableLine usable={usable} y={y(usable)} left={left} right={right} />}
      {shownTriggers.map((t, i) => (
        <TriggerLine
          key={`trigger-${t.step}`}
          trigger={t}
          y={y(t.tokens)}
          left={left}
          right={right}
          labelX={labels[i]?.x ?? left}
          short={labels[i]?.short ?? false}
        />
      ))}
      {points
        .filter((p) => p.upstream.length > 0)
        .map((p) => (
          <UpstreamLine key={`upstream-${p.call}`} point={p} x={at(p)} top={top} bottom={bottom} />
        ))}
      {points
        .filter((p) => p.step !== null)
        .map((p) => (
          <StepLine key={`step-${p.call}`} point={p} x={at(p)} top={top} bottom={bottom} />
        ))}
      <g className="timeline-line-original">
        <path
          className="timeline-line-curve"
          d={geometry.beforePath}
          stroke="var(--timeline-original)"
          strokeWidth={1.5}
          fill="none"
        />
      </g>
      <g className="timeline-line-compacted">
        <path
          className="timeline-line-curve"
          d={geometry.afterPath}
          stroke="var(--timeline-compacted)"
          strokeWidth={1.5}
          fill="none"
        />
      </g>
      <g className="timeline-markers">
        {fired.map((p) => (
          <FiredDot key={p.call} point={p} cx={at(p)} cy={y(cost ? (p.costAfter ?? 0) : p.after)} />
        ))}
        {rewrites.map((p) => (
          <RewriteDot key={p.call} point={p} cx={at(p)} cy={y(p.costAfter ?? 0)} />
        ))}
      </g>
      {now ? <NowMarker point={now} cx={at(now)} cy={y(now.before)} /> : null}
      {reported.length > 0 ? (
        <g className="timeline-line-reported">
          {reported.map((p) => (
            <ReportedDot key={p.call} point={p} cx={at(p)} cy={y(p.reported ?? 0)} />
          ))}
        </g>
      ) : null}
    </g>
  )
})
