import { useMemo } from 'react'
import { usePreviousSummary, useRunSummary } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { isUnchanged, runDelta, signed } from './delta.ts'

/** "What did my edit do?": the latest run against the one before it. */
export function DeltaLine() {
  const summary = useRunSummary()
  const previous = usePreviousSummary()
  const delta = useMemo(
    () => (summary && previous ? runDelta(previous, summary) : null),
    [summary, previous],
  )
  if (!delta) return null
  const same = isUnchanged(delta)
  return (
    <p
      className="cfg-delta"
      aria-live="polite"
      data-testid={TID.configDelta}
      data-after-change={delta.afterChange}
      data-saved-change={delta.savedChange}
      data-groups-changed={delta.groupsChanged}
    >
      <span className="cfg-delta-label">Since the previous run:</span>{' '}
      {same ? (
        <span>same result.</span>
      ) : (
        <>
          <span>
            tokens after {formatCount(delta.afterBefore)} → {formatCount(delta.afterNow)} (
            {signed(delta.afterChange)})
          </span>
          {' · '}
          <span>saved {signed(delta.savedChange)}</span>
          {' · '}
          <span>
            {formatCount(delta.groupsChanged)} {delta.groupsChanged === 1 ? 'group' : 'groups'}{' '}
            changed status
          </span>
          {delta.newlyFailing.length > 0 ? (
            <span className="cfg-delta-bad"> · now failing: {delta.newlyFailing.join(', ')}</span>
          ) : null}
          {delta.newlyPassing.length > 0 ? (
            <span className="cfg-delta-good"> · now passing: {delta.newlyPassing.join(', ')}</span>
          ) : null}
        </>
      )}
    </p>
  )
}
