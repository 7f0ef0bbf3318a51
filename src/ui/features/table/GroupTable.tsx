import { useDeferredValue, useMemo, useState } from 'react'
import { useRunStatus, useRunSummary } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { buildRows, filterCounts, GROUP_FILTERS, matchesFilter } from './groupRows.ts'
import type { GroupFilter } from './groupRows.ts'
import { VirtualGroupTable } from './VirtualGroupTable.tsx'

function FilterChips(props: {
  readonly counts: Record<GroupFilter, number>
  readonly filter: GroupFilter
  readonly onChange: (filter: GroupFilter) => void
}) {
  const { counts, filter, onChange } = props
  return (
    <div className="gt-chips" role="group" aria-label="Filter groups by status">
      {GROUP_FILTERS.map((f) => (
        <button
          key={f.id}
          type="button"
          className={f.id === filter ? 'chip active' : 'chip'}
          aria-pressed={f.id === filter}
          data-testid={TID.groupFilter}
          data-filter={f.id}
          data-count={counts[f.id]}
          onClick={() => onChange(f.id)}
        >
          {f.label} <span className="chip-count">{formatCount(counts[f.id])}</span>
        </button>
      ))}
    </div>
  )
}

/** The grouped table: one row per group of the latest run, filterable and sortable. */
export function GroupTable() {
  const summary = useRunSummary()
  const status = useRunStatus()
  const [filter, setFilter] = useState<GroupFilter>('all')
  const allRows = useMemo(() => (summary ? buildRows(summary) : []), [summary])
  const counts = useMemo(() => filterCounts(allRows), [allRows])
  const deferredFilter = useDeferredValue(filter)
  const rows = useMemo(
    () =>
      deferredFilter === 'all'
        ? allRows
        : allRows.filter((r) => matchesFilter(r.status, deferredFilter)),
    [allRows, deferredFilter],
  )
  if (!summary) return null
  return (
    <Section
      title="Groups"
      aside={
        <span className="hint">
          {formatCount(rows.length)} of {formatCount(allRows.length)} groups
          {summary.decisionCount > summary.decisions.length
            ? ` · reasons for the first ${formatCount(summary.decisions.length)} decisions`
            : ''}
        </span>
      }
      testId={TID.groupTable}
      className={status === 'running' ? 'group-table stale' : 'group-table'}
    >
      <FilterChips counts={counts} filter={filter} onChange={setFilter} />
      <VirtualGroupTable rows={rows} filter={deferredFilter} />
    </Section>
  )
}
