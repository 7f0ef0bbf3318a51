import { useMemo } from 'react'
import { useReplay, useRunStatus, useRunSummary } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { TimelineChart } from './TimelineChart.tsx'
import { timelineFacts, timelinePoints, type TimelineFacts } from './timelineModel.ts'

function describe(facts: TimelineFacts, usable: number): string {
  return (
    `Context tokens over ${formatCount(facts.calls)} model calls. ` +
    `Original peaks at ${formatCount(facts.peakBefore)}, compacted at ${formatCount(facts.peakAfter)}; ` +
    `usable window ${formatCount(usable)}. ` +
    `Compaction fired at ${formatCount(facts.firedCalls)} calls.`
  )
}

function Caption({ facts }: { readonly facts: TimelineFacts }) {
  return (
    <p className="hint timeline-caption">
      {formatCount(facts.calls)} model calls · fired at {formatCount(facts.firedCalls)} · over the
      usable window: {formatCount(facts.overBefore)} original, {formatCount(facts.overAfter)}{' '}
      compacted
      {facts.reportedCalls > 0 ? ` · ${formatCount(facts.reportedCalls)} with reported usage` : ''}
    </p>
  )
}

function Key({ hasReported }: { readonly hasReported: boolean }) {
  return (
    <div className="budget-key timeline-key" aria-hidden="true">
      <span>
        <i className="swatch timeline-swatch-original" /> original
      </span>
      <span>
        <i className="swatch timeline-swatch-compacted" /> compacted
      </span>
      <span>
        <i className="swatch timeline-swatch-fired" /> a strategy fired
      </span>
      {hasReported ? (
        <span>
          <i className="swatch timeline-swatch-reported" /> reported by the transcript
        </span>
      ) : null}
      <span>
        <i className="swatch edge" /> usable window
      </span>
    </div>
  )
}

/** Context tokens per model call (the replay), original vs compacted, against the usable window. */
export function ReplayTimeline() {
  const summary = useRunSummary()
  const replay = useReplay()
  const status = useRunStatus()
  const points = useMemo(() => (replay ? timelinePoints(replay) : []), [replay])
  const usable = summary?.tokens.usable ?? 0
  const facts = useMemo(() => timelineFacts(points, usable), [points, usable])
  const stale = status === 'running' && summary !== null

  return (
    <Section
      title="Timeline"
      testId={TID.timeline}
      className={stale ? 'timeline stale' : 'timeline'}
    >
      {!summary || points.length === 0 ? (
        <div className="empty" data-testid={TID.timelineEmpty}>
          {status === 'running'
            ? 'Replaying the conversation call by call…'
            : summary
              ? 'No model calls to replay in this transcript.'
              : 'Run a compaction to see context tokens per model call.'}
        </div>
      ) : (
        <>
          <Caption facts={facts} />
          <figure
            className="timeline-figure"
            role="img"
            aria-label={describe(facts, usable)}
            data-testid={TID.timelineChart}
            data-calls={facts.calls}
            data-fired={facts.firedCalls}
          >
            <TimelineChart points={points} usable={usable} hasReported={facts.reportedCalls > 0} />
          </figure>
          <Key hasReported={facts.reportedCalls > 0} />
        </>
      )}
    </Section>
  )
}
