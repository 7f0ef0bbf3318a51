import { useMemo, useState } from 'react'
import { useDeferredRunSummary, useSelectedGroup, useLabStore } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import {
  checkLabel,
  failingChecks,
  offenceIndex,
  offences,
  stepOffence,
  type FailingCheck,
} from './invariantsModel.ts'
import './invariants.css'

function CheckItem(props: {
  readonly check: FailingCheck
  readonly current: boolean
  readonly onGo: () => void
}) {
  const { check, current, onGo } = props
  return (
    <li
      className={current ? 'inv-check current' : 'inv-check'}
      data-testid={TID.invariantCheck}
      data-check={check.id}
      data-groups={check.groups.length}
    >
      <span className="inv-check-name">{checkLabel(check.id)}</span>
      <span className="inv-check-detail">{check.detail}</span>
      {check.groups.length > 0 ? (
        <button type="button" className="inv-go" onClick={onGo}>
          {formatCount(check.groups.length)} {check.groups.length === 1 ? 'group' : 'groups'} →
        </button>
      ) : (
        <span className="hint">not tied to a group</span>
      )}
    </li>
  )
}

/**
 * Invariant warnings: every failing check of the latest run with next/previous through the
 * offending groups (selecting one scrolls the table to it, like a devtools error counter).
 */
export function InvariantsPanel() {
  const lab = useLabStore()
  const summary = useDeferredRunSummary()
  const selected = useSelectedGroup()
  // The stop we last moved to: a group breaking two checks is then shown under the right one.
  const [hint, setHint] = useState(-1)
  const failing = useMemo(() => (summary ? failingChecks(summary) : []), [summary])
  const list = useMemo(() => offences(failing), [failing])
  if (!summary) return null
  const total = summary.invariants.checks.length

  if (failing.length === 0 && summary.settling) {
    // The first round's summary: the idempotence check follows (the `settle` request).
    return (
      <div className="inv-pass pending" data-testid={TID.invariantsPanel} data-ok="pending">
        {formatCount(total)} invariant checks pass so far; checking idempotence…
      </div>
    )
  }
  if (failing.length === 0) {
    return (
      <div className="inv-pass" data-testid={TID.invariantsPanel} data-ok="true">
        <span aria-hidden="true">✓</span> All {formatCount(total)} invariant checks pass
      </div>
    )
  }

  const at = offenceIndex(list, selected, hint)
  const go = (index: number) => {
    const stop = list[index]
    if (!stop) return
    setHint(index)
    lab.getState().selectGroup(stop.groupId)
  }
  const currentCheck = at >= 0 ? list[at]?.checkId : undefined
  return (
    <Section
      title="Invariant warnings"
      testId={TID.invariantsPanel}
      className="invariants-panel"
      aside={
        <div className="inv-nav" role="group" aria-label="Offending groups">
          <button
            type="button"
            data-testid={TID.invariantPrev}
            aria-label="Previous offending group"
            disabled={list.length === 0}
            onClick={() => go(stepOffence(list.length, at, -1))}
          >
            ↑ Prev
          </button>
          <span className="num" data-testid={TID.invariantPosition} aria-live="polite">
            {at >= 0 ? formatCount(at + 1) : '–'} of {formatCount(list.length)}
          </span>
          <button
            type="button"
            data-testid={TID.invariantNext}
            aria-label="Next offending group"
            disabled={list.length === 0}
            onClick={() => go(stepOffence(list.length, at, 1))}
          >
            Next ↓
          </button>
        </div>
      }
    >
      <ul className="inv-list" data-ok="false">
        {failing.map((check) => (
          <CheckItem
            key={check.id}
            check={check}
            current={check.id === currentCheck}
            onGo={() => go(list.findIndex((o) => o.checkId === check.id))}
          />
        ))}
      </ul>
    </Section>
  )
}
