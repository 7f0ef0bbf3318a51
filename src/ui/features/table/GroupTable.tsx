import { useDeferredValue, useMemo, useState } from 'react'
import {
  useRunStatus,
  useDeferredRunSummary,
  useFind,
  useTableFilter,
  useViewActions,
  type MessageRange,
} from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { createRowCache, filterCounts, GROUP_FILTERS, inRange, matchesFilter } from './groupRows.ts'
import type { GroupFilter } from './groupRows.ts'
import { filterByQuery, parseQuery } from './query.ts'
import { FindBar } from './FindBar.tsx'
import { QueryBar } from './QueryBar.tsx'
import { VirtualGroupTable } from './VirtualGroupTable.tsx'
import { useRowSentences } from './useRowSentences.ts'
import './table.css'

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

function BrushChip({ brush, onClear }: { brush: MessageRange; onClear: () => void }) {
  return (
    <span
      className="chip active gt-brush"
      data-testid={TID.tableBrush}
      data-from={brush.from}
      data-to={brush.to}
    >
      brushed: messages {formatCount(brush.from)}–{formatCount(brush.to)}
      <button
        type="button"
        className="gt-brush-clear"
        data-testid={TID.tableBrushClear}
        aria-label="Clear the timeline brush"
        onClick={onClear}
      >
        ×
      </button>
    </span>
  )
}

/**
 * The grouped table: one row per group of the latest run. The status chip, the filter grammar and
 * the timeline's brush (all in the store's view slice) narrow it, in that order of cost.
 */
export function GroupTable() {
  const summary = useDeferredRunSummary()
  const status = useRunStatus()
  const { chip, query, brush } = useTableFilter()
  const { setChip, setQuery, setBrush } = useViewActions()
  const { matches } = useFind()
  const matchSet = useMemo(() => new Set(matches), [matches])
  // Unchanged groups keep their row objects from run to run (only changed lines re-render).
  const [rowsOf] = useState(createRowCache)
  const sentences = useRowSentences(summary)
  const allRows = useMemo(
    () => (summary ? rowsOf(summary, sentences) : []),
    [summary, sentences, rowsOf],
  )
  const parsed = useMemo(() => parseQuery(query), [query])
  // Typing and brushing stay responsive on 10,000 groups: the filtering may lag a frame behind.
  const deferredParsed = useDeferredValue(parsed)
  const deferredBrush = useDeferredValue(brush)
  const deferredChip = useDeferredValue(chip)
  const narrowed = useMemo(() => {
    const brushed = deferredBrush ? allRows.filter((r) => inRange(r, deferredBrush)) : allRows
    return filterByQuery(brushed, deferredParsed)
  }, [allRows, deferredBrush, deferredParsed])
  const counts = useMemo(() => filterCounts(narrowed), [narrowed])
  const rows = useMemo(
    () =>
      deferredChip === 'all'
        ? narrowed
        : narrowed.filter((r) => matchesFilter(r.status, deferredChip)),
    [narrowed, deferredChip],
  )
  if (!summary) return null
  return (
    <Section
      title="Groups"
      aside={
        <>
          <span className="hint" data-testid={TID.tableCount} data-shown={rows.length}>
            {formatCount(rows.length)} of {formatCount(allRows.length)} groups
            {summary.decisionCount > summary.decisions.length
              ? ` · reasons for the first ${formatCount(summary.decisions.length)} decisions`
              : ''}
          </span>
          <FindBar rows={rows} />
        </>
      }
      testId={TID.groupTable}
      className={status === 'running' ? 'group-table stale' : 'group-table'}
    >
      <VirtualGroupTable
        rows={rows}
        filter={deferredChip}
        matches={matchSet}
        toolbar={<QueryBar query={query} parsed={parsed} onChange={setQuery} />}
        chips={
          <div className="gt-chips-row">
            <FilterChips counts={counts} filter={chip} onChange={setChip} />
            {brush ? <BrushChip brush={brush} onClear={() => setBrush(null)} /> : null}
          </div>
        }
      />
    </Section>
  )
}
