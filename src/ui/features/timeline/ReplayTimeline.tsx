import { lazy, memo, Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react'
import {
  useLayoutActions,
  usePanelLayout,
  useRunStatus,
  useDeferredRunSummary,
  useTableFilter,
  useReplay,
  useReplayPending,
  useReplayProgress,
  type ReplaySeries,
  type RunView,
  useLabStore,
  useLoadSeq,
} from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { groupAtMessage } from '../../lib/groups.ts'
import {
  brushToMessages,
  messagesToBrush,
  timelineFacts,
  thinPoints,
  timelinePoints,
  type TimelineFacts,
  type TimelinePoint,
} from './timelineModel.ts'
import './timeline.css'

// The chart fills in after the replay anyway: its own chunk, so the first budget does not wait
// for it (issue 14). Memoised: the section re-renders on every run status and progress change,
// which leave the chart's props as they were.
const TimelineChart = lazy(() =>
  import('./TimelineChart.tsx').then((m) => ({ default: memo(m.TimelineChart) })),
)

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
      {facts.flaggedCalls > 0 ? ` · ${formatCount(facts.flaggedCalls)} over 10 % off` : ''} · last
      point: now (the headline)
    </p>
  )
}

/** Folds the timeline to its title line (remembered), giving the list its height. */
function CollapseToggle() {
  const { timelineCollapsed } = usePanelLayout()
  const { toggleTimeline } = useLayoutActions()
  return (
    <button
      type="button"
      className="button ghost"
      aria-expanded={!timelineCollapsed}
      aria-controls="timeline-slot"
      onClick={toggleTimeline}
      data-testid={TID.timelineToggle}
      title={`${timelineCollapsed ? 'Show' : 'Fold'} the timeline`}
    >
      {timelineCollapsed ? 'Show ▾' : 'Fold ▴'}
    </button>
  )
}

function Key(props: {
  readonly mode: 'tokens' | 'cost'
  readonly hasReported: boolean
  readonly hasTriggers: boolean
  readonly hasUpstream: boolean
}) {
  const { mode, hasReported, hasTriggers, hasUpstream } = props
  const tokens = mode === 'tokens'
  return (
    <div className="budget-key timeline-key" aria-hidden="true">
      <span>
        <i className="swatch timeline-swatch-original" /> original{tokens ? '' : ' cost per call'}
      </span>
      <span>
        <i className="swatch timeline-swatch-compacted" /> compacted{tokens ? '' : ' cost per call'}
      </span>
      <span>
        <i className="swatch timeline-swatch-fired" /> a strategy fired
      </span>
      {tokens ? null : (
        <span>
          <i className="swatch timeline-swatch-rewrite" /> compaction forced a cache re-write
        </span>
      )}
      {hasReported && tokens ? (
        <span>
          <i className="swatch timeline-swatch-reported" /> reported by the transcript (ringed: over
          10 % off)
        </span>
      ) : null}
      {tokens ? (
        <span>
          <i className="swatch edge" /> usable window
        </span>
      ) : null}
      {hasTriggers && tokens ? (
        <span>
          <i className="swatch timeline-swatch-trigger" /> trigger level
        </span>
      ) : null}
      {hasUpstream ? (
        <span>
          <i className="swatch timeline-swatch-upstream" /> compacted upstream
        </span>
      ) : null}
      {tokens ? (
        <span>
          <i className="swatch timeline-swatch-step" /> hidden prefix changes
        </span>
      ) : (
        <span>prompt cache modelled per provider over the transcript's timestamps</span>
      )}
      <span>drag the handles under the chart to filter the table; click a call to select it</span>
    </div>
  )
}

/**
 * The replay runs after the summary: say how far it is (it can take a while on long sessions).
 * The one reader of the progress: a tick re-renders this line, not the timeline.
 */
function ReplayWaiting() {
  const progress = useReplayProgress()
  const total = progress?.total ?? 0
  const done = progress?.done ?? 0
  return (
    <span className="timeline-replaying" data-testid={TID.timelineReplaying}>
      Replaying the conversation call by call…
      {total > 0 ? (
        <>
          {' '}
          {formatCount(done)} / {formatCount(total)} calls
          <progress className="timeline-progress" max={total} value={done} />
        </>
      ) : null}
    </span>
  )
}

/** Context tokens per model call (the replay), original vs compacted, against the usable window. */
function ModeToggle(props: {
  readonly mode: 'tokens' | 'cost'
  readonly onMode: (mode: 'tokens' | 'cost') => void
  readonly costReady: boolean
}) {
  const { mode, onMode, costReady } = props
  return (
    <div
      className="seg-toggle"
      role="group"
      aria-label="Timeline shows"
      data-testid={TID.timelineMode}
    >
      {(['tokens', 'cost'] as const).map((m) => (
        <button
          key={m}
          type="button"
          className={mode === m ? 'button active' : 'button'}
          aria-pressed={mode === m}
          disabled={m === 'cost' && !costReady}
          title={m === 'cost' && !costReady ? 'no price known for this model' : undefined}
          onClick={() => onMode(m)}
          data-mode={m}
        >
          {m === 'tokens' ? 'Tokens' : 'Cost ($)'}
        </button>
      ))}
    </div>
  )
}

/** A replay and the run it replays, shown together. */
interface Shown {
  readonly replay: ReplaySeries
  readonly summary: RunView
  /** The load it belongs to (`loadSeq`). */
  readonly loadSeq: number
}

export function ReplayTimeline() {
  const lab = useLabStore()
  const latestSummary = useDeferredRunSummary()
  const [mode, setMode] = useState<'tokens' | 'cost'>('tokens')
  const latestReplay = useDeferredValue(useReplay())
  const status = useRunStatus()
  const replayPending = useReplayPending()
  // A run's summary lands before its replay. Meanwhile the chart keeps the last series it had
  // (marked stale) instead of unmounting: mounting recharts again on every edit was a commit of
  // 70–360 ms (issue 14). A replay in the store always belongs to the summary beside it.
  // Only within one transcript: a new load starts empty (the deferred summary may never be null
  // in between, so the load count says whether the kept series is of this transcript).
  const loadSeq = useLoadSeq()
  const [kept, setKept] = useState<Shown | null>(null)
  if (latestReplay && latestSummary) {
    if (kept?.replay !== latestReplay || kept.summary !== latestSummary)
      setKept({ replay: latestReplay, summary: latestSummary, loadSeq })
  }
  const waiting = latestSummary !== null && latestReplay === null && replayPending
  const shown: Shown | null =
    latestReplay && latestSummary
      ? { replay: latestReplay, summary: latestSummary, loadSeq }
      : waiting && kept?.loadSeq === loadSeq
        ? kept
        : null
  const replay = shown?.replay ?? null
  const summary = shown?.summary ?? latestSummary
  const { brush } = useTableFilter()
  const upstream = summary?.upstream
  const allPoints = useMemo(() => {
    if (!replay || !summary) return []
    const rec = summary.accounting.reconciliation
    const lastIndex = replay.index[replay.index.length - 1] ?? 0
    return timelinePoints(replay, upstream, {
      // The headline's figures close the series, so the last point and the headline agree.
      now: { before: summary.tokens.before, after: summary.tokens.after, index: lastIndex + 1 },
      flagged: rec.flagged,
      steps: rec.steps,
    })
  }, [replay, upstream, summary])
  // The chart, its brush and clicks work on the thinned series; the facts on every call.
  const points = useMemo(() => thinPoints(allPoints), [allPoints])
  const usable = summary?.tokens.usable ?? 0
  const facts = useMemo(() => timelineFacts(allPoints, usable), [allPoints, usable])
  const stale = (status === 'running' && summary !== null) || (waiting && replay !== null)
  const brushed = useMemo(() => messagesToBrush(points, brush), [points, brush])
  const onBrush = useCallback(
    (start: number, end: number) => lab.getState().setBrush(brushToMessages(points, start, end)),
    [points, lab],
  )
  const onPick = useCallback(
    (point: TimelinePoint) => {
      if (!summary) return
      const { firstMessage, messageCounts, ids } = summary.groups
      const at = groupAtMessage(firstMessage, messageCounts, point.index)
      const id = at === null ? undefined : ids[at]
      if (id !== undefined) lab.getState().selectGroup(id)
    },
    [summary, lab],
  )

  return (
    <Section
      title="Timeline"
      testId={TID.timeline}
      className={stale ? 'timeline stale' : 'timeline'}
      aside={
        <>
          {replay ? (
            <ModeToggle mode={mode} onMode={setMode} costReady={replay.cost?.before != null} />
          ) : null}
          <CollapseToggle />
        </>
      }
    >
      {!summary || points.length === 0 ? (
        <div className="empty" data-testid={TID.timelineEmpty}>
          {status === 'running' || replayPending ? (
            <ReplayWaiting />
          ) : summary ? (
            'No model calls to replay in this transcript.'
          ) : (
            'Run a compaction to see context tokens per model call.'
          )}
        </div>
      ) : (
        <>
          <Caption facts={facts} />
          <figure
            className="timeline-figure"
            role="group"
            aria-label={describe(facts, usable)}
            data-testid={TID.timelineChart}
            data-calls={facts.calls}
            data-fired={facts.firedCalls}
            data-upstream={upstream?.length ?? 0}
            data-brush-start={brushed.start}
            data-brush-end={brushed.end}
            data-mode={mode}
          >
            <Suspense fallback={null}>
              <TimelineChart
                mode={mode}
                points={points}
                usable={usable}
                hasReported={facts.reportedCalls > 0}
                triggers={summary.triggers}
                brush={brushed}
                onBrush={onBrush}
                onPick={onPick}
              />
            </Suspense>
          </figure>
          <Key
            mode={mode}
            hasReported={facts.reportedCalls > 0}
            hasTriggers={summary.triggers.length > 0}
            hasUpstream={(upstream?.length ?? 0) > 0}
          />
        </>
      )}
    </Section>
  )
}
