import { formatCount } from '../../lib/format.ts'
import { formatUsd } from '../accounting/accountingModel.ts'
import { TID } from '../../testids.ts'
import { describeUpstream, type TimelinePoint } from './timelineModel.ts'

/** The hovered model call: its number, message index, before / after / reported, what fired. */
export function TimelineTooltip({ point }: { readonly point: TimelinePoint }) {
  return (
    <div className="timeline-tooltip" data-testid={TID.timelineTooltip} data-call={point.call}>
      <div className="timeline-tooltip-head">
        {point.now
          ? 'Now: the next call (the headline)'
          : `Call ${formatCount(point.call)} · message #${formatCount(point.index)}`}
      </div>
      <dl>
        <dt>original</dt>
        <dd className="num">{formatCount(point.before)}</dd>
        <dt>compacted</dt>
        <dd className="num">{formatCount(point.after)}</dd>
        <dt>reported</dt>
        <dd className="num">{point.reported === null ? '—' : formatCount(point.reported)}</dd>
        {point.costBefore !== null && point.costAfter !== null ? (
          <>
            <dt>cost</dt>
            <dd className="num">
              {formatUsd(point.costBefore)} → {formatUsd(point.costAfter)}
            </dd>
          </>
        ) : null}
      </dl>
      {point.flagged ? (
        <div className="timeline-tooltip-fired">over 10 % from the reported figure</div>
      ) : null}
      {point.rewrite > 0 ? (
        <div className="timeline-tooltip-fired">
          cache re-write: {formatCount(point.rewrite)} tokens written again
        </div>
      ) : null}
      {point.fired.length > 0 ? (
        <div className="timeline-tooltip-fired">fired: {point.fired.join(', ')}</div>
      ) : null}
      {point.upstream.map((m) => (
        <div key={`${m.beforeIndex}-${m.origin}`} className="timeline-tooltip-upstream">
          {describeUpstream(m, formatCount)}
        </div>
      ))}
    </div>
  )
}
