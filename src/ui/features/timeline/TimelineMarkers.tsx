import type { RunView } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { describeUpstream, type TimelinePoint } from './timelineModel.ts'

interface LineProps {
  readonly x1?: number
  readonly y1?: number
  readonly x2?: number
  readonly y2?: number
}

/** A dashed vertical line with a ⟲ badge where the source system compacted before this call. */
export function upstreamLine(point: TimelinePoint) {
  const title = point.upstream.map((m) => describeUpstream(m, formatCount)).join('\n')
  return function UpstreamLine({ x1, y1, x2, y2 }: LineProps) {
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return <g />
    const top = Math.min(y1, y2)
    return (
      <g
        className="timeline-upstream"
        data-testid={TID.timelineUpstream}
        data-call={point.call}
        data-message={point.upstream[0]?.beforeIndex}
      >
        <title>{title}</title>
        <line x1={x1} y1={y1} x2={x2} y2={y2} />
        {/* A wide transparent hit area: the 1px line alone is hard to hover. */}
        <rect
          className="timeline-upstream-hit"
          x={x1 - 5}
          y={top}
          width={10}
          height={Math.abs(y2 - y1)}
        />
        <text x={x1 + 4} y={top + 10}>
          ⟲ upstream
        </text>
      </g>
    )
  }
}

type Trigger = RunView['triggers'][number]

/** A horizontal line at the token level where a pipeline step's trigger fires. */
export function triggerLine(trigger: Trigger) {
  const label = `step ${trigger.step + 1} · ${trigger.strategy} fires over ${formatCount(trigger.tokens)}`
  return function TriggerLine({ x1, y1, x2, y2 }: LineProps) {
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return <g />
    return (
      <g
        className="timeline-trigger"
        data-testid={TID.timelineTrigger}
        data-step={trigger.step}
        data-tokens={trigger.tokens}
      >
        <title>{label}</title>
        <line x1={x1} y1={y1} x2={x2} y2={y2} />
        <text x={x1 + 4} y={y1 - 4}>
          {label}
        </text>
      </g>
    )
  }
}

/** A dotted vertical line where the reconciliation found the hidden prefix changing. */
export function stepLine(point: TimelinePoint) {
  const label = `hidden prefix → ${formatCount(point.step ?? 0)} (found from the residuals)`
  return function StepLine({ x1, y1, x2, y2 }: LineProps) {
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return <g />
    const top = Math.min(y1, y2)
    return (
      <g
        className="timeline-step"
        data-testid={TID.timelineStep}
        data-call={point.call}
        data-prefix={point.step ?? 0}
      >
        <title>{label}</title>
        <line x1={x1} y1={y1} x2={x2} y2={y2} />
        <text x={x1 + 3} y={top + 22}>
          ↕
        </text>
      </g>
    )
  }
}
