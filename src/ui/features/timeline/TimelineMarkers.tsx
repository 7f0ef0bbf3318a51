import type { RunView } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { describeUpstream, type TimelinePoint } from './timelineModel.ts'

/** A vertical marker spans the plot at `x`, from `top` to `bottom`. */
interface VerticalProps {
  readonly point: TimelinePoint
  readonly x: number
  readonly top: number
  readonly bottom: number
}

/** A dashed vertical line with a ⟲ badge where the source system compacted before this call. */
export function UpstreamLine({ point, x, top, bottom }: VerticalProps) {
  const title = point.upstream.map((m) => describeUpstream(m, formatCount)).join('\n')
  return (
    <g
      className="timeline-upstream"
      data-testid={TID.timelineUpstream}
      data-call={point.call}
      data-message={point.upstream[0]?.beforeIndex}
    >
      <title>{title}</title>
      <line x1={x} y1={top} x2={x} y2={bottom} />
      {/* A wide transparent hit area: the 1px line alone is hard to hover. */}
      <rect className="timeline-upstream-hit" x={x - 5} y={top} width={10} height={bottom - top} />
      <text x={x + 4} y={top + 10}>
        ⟲ upstream
      </text>
    </g>
  )
}

/** A dotted vertical line where the reconciliation found the hidden prefix changing. */
export function StepLine({ point, x, top, bottom }: VerticalProps) {
  const label = `hidden prefix → ${formatCount(point.step ?? 0)} (found from the residuals)`
  return (
    <g
      className="timeline-step"
      data-testid={TID.timelineStep}
      data-call={point.call}
      data-prefix={point.step ?? 0}
    >
      <title>{label}</title>
      <line x1={x} y1={top} x2={x} y2={bottom} />
      <text x={x + 3} y={top + 22}>
        ↕
      </text>
    </g>
  )
}

/** A horizontal marker spans the plot at `y`, from `left` to `right`. */
interface HorizontalProps {
  readonly y: number
  readonly left: number
  readonly right: number
}

type Trigger = RunView['triggers'][number]

/** A horizontal line at the token level where a pipeline step's trigger fires. */
export function TriggerLine({
  trigger,
  y,
  left,
  right,
  labelX,
  short,
}: HorizontalProps & { trigger: Trigger; labelX: number; short: boolean }) {
  const label = `step ${trigger.step + 1} · ${trigger.strategy} fires over ${formatCount(trigger.tokens)}`
  return (
    <g
      className="timeline-trigger"
      data-testid={TID.timelineTrigger}
      data-step={trigger.step}
      data-tokens={trigger.tokens}
    >
      <title>{label}</title>
      <line x1={left} y1={y} x2={right} y2={y} />
      <text x={labelX + 4} y={y - 4}>
        {short ? shortTriggerLabel(trigger) : label}
      </text>
    </g>
  )
}

/** A trigger's label where lines crowd together (the long one is in its tooltip). */
export const shortTriggerLabel = (trigger: Trigger) =>
  `step ${trigger.step + 1} · ${formatCount(trigger.tokens)}`

/** The usable window (context window less the reserve) as a dashed line with its label. */
export function UsableLine({ usable, y, left, right }: HorizontalProps & { usable: number }) {
  return (
    <g data-testid={TID.timelineUsable} data-usable={usable}>
      <line className="timeline-usable" x1={left} y1={y} x2={right} y2={y} />
      <text className="timeline-usable-label" x={right - 4} y={y - 5} textAnchor="end">
        usable window {formatCount(usable)}
      </text>
    </g>
  )
}

/** A point marker sits at its pixel position. */
interface DotProps {
  readonly point: TimelinePoint
  readonly cx: number
  readonly cy: number
}

/** A marker on the compacted line where a strategy changed something at that call. */
export function FiredDot({ point, cx, cy }: DotProps) {
  return (
    <path
      className="timeline-fired"
      data-testid={TID.timelineFired}
      data-call={point.call}
      d={`M${cx},${cy - 5}L${cx + 5},${cy}L${cx},${cy + 5}L${cx - 5},${cy}Z`}
    >
      <title>{`Call ${point.call}: ${point.fired.join(', ')}`}</title>
    </path>
  )
}

/** In cost mode: a square where the config made the provider write cached tokens again. */
export function RewriteDot({ point, cx, cy }: DotProps) {
  return (
    <g className="timeline-rewrite" data-testid={TID.timelineRewrite} data-call={point.call}>
      <title>{`Call ${point.call}: ${formatCount(point.rewrite)} cached tokens written again (${point.fired.join(', ')})`}</title>
      <rect x={cx - 4} y={cy - 4} width={8} height={8} />
    </g>
  )
}

/**
 * Reported usage, as a dot over the reconstructed line (only where the transcript reported it); a
 * call whose reconstruction is more than 10 % off is ringed.
 */
export function ReportedDot({ point, cx, cy }: DotProps) {
  if (point.flagged && point.reported !== null)
    return (
      <g className="timeline-flagged" data-testid={TID.timelineFlagged} data-index={point.index}>
        <title>{`Call ${point.call}: reconstructed ${formatCount(point.before)} vs reported ${formatCount(point.reported)} — over 10 % apart`}</title>
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

/** The last point on the original line: the whole session as it stands (the headline). */
export function NowMarker({ point, cx, cy }: DotProps) {
  return (
    <g
      className="timeline-now"
      data-testid={TID.timelineNow}
      data-before={point.before}
      data-after={point.after}
    >
      <title>{`Now (next call): ${formatCount(point.before)} → ${formatCount(point.after)} — the headline`}</title>
      <circle cx={cx} cy={cy} r={4} />
    </g>
  )
}
