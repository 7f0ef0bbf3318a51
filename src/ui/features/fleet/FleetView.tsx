import { useDeferredValue, useMemo, useState } from 'react'
import type { FleetRow } from '../../../fleet/types.ts'
import { ConfigEditor } from '../config/ConfigEditor.tsx'
import { PresetPicker } from '../config/PresetPicker.tsx'
import { FleetAggregates } from './FleetAggregates.tsx'
import { FleetCharts } from './FleetCharts.tsx'
import { FleetCompare } from './FleetCompare.tsx'
import { FleetSweep } from './FleetSweep.tsx'
import { FLEET_TID } from './fleetIds.ts'
import { linesOf, sortLines, type Sort, type SortKey } from './fleetModel.ts'
import { parseFleetQuery } from './fleetQuery.ts'
import { useFleetStore } from './fleetStore.ts'
import { FleetTable } from './FleetTable.tsx'
import { FleetToolbar } from './FleetToolbar.tsx'
import { useFleetDrop } from './useFleetDrop.ts'
import './fleet.css'

type Tab = 'rows' | 'sweep' | 'compare'
const TABS: readonly (readonly [Tab, string])[] = [
  ['rows', 'Conversations'],
  ['sweep', 'Sweep a parameter'],
  ['compare', 'Compare two configs'],
]

const NUMERIC: readonly SortKey[] = [
  'calls',
  'before',
  'after',
  'saved',
  'peak',
  'cost',
  'costSaved',
  'risk',
]

/**
 * The conversations: aggregates, charts, the filter and the table. It alone follows the rows, so
 * the config editor beside it does not re-render as files finish; the rows are a deferred value,
 * so React renders them in interruptible slices and the page stays responsive while a fleet runs.
 */
function FleetResults() {
  const entries = useDeferredValue(useFleetStore((s) => s.entries))
  const running = useFleetStore((s) => s.run.running)
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<Sort>({ key: 'saved', desc: true })
  const [tab, setTab] = useState<Tab>('rows')
  const deferredQuery = useDeferredValue(query)
  const lines = useMemo(() => linesOf(entries), [entries])
  const parsed = useMemo(() => parseFleetQuery(deferredQuery), [deferredQuery])
  const shown = useMemo(() => {
    const kept = parsed.ok ? lines.filter(parsed.match) : lines
    return sortLines(kept, sort)
  }, [lines, parsed, sort])
  const rows = useMemo(() => {
    const out: FleetRow[] = []
    for (const l of shown) if (l.row && !l.stale) out.push(l.row)
    return out
  }, [shown])
  const failed = useMemo(() => shown.filter((l) => l.status === 'failed').length, [shown])
  const onSort = (key: SortKey) =>
    setSort((s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: NUMERIC.includes(key) }))
  if (entries.length === 0)
    return (
      <div className="fleet-empty">
        Drop several transcripts, a folder or a <code>.zip</code> here — or add them above. Each is
        evaluated with the config on the left in a pool of workers, in this browser; nothing is
        uploaded.
      </div>
    )
  return (
    <>
      <FleetAggregates rows={rows} failed={failed} />
      <div className="fleet-tabs" role="tablist">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? 'fleet-tab active' : 'fleet-tab'}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'sweep' ? <FleetSweep /> : null}
      {tab === 'compare' ? <FleetCompare /> : null}
      {tab === 'rows' ? <FleetCharts rows={rows} lines={shown} running={running} /> : null}
      {tab === 'rows' ? (
        <>
          <div className="fleet-querybar">
            <input
              type="search"
              className="fleet-query"
              placeholder="filter: format:codex savedpct>20 calls:10..200 -risk:0 strategy:stub"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              aria-invalid={!parsed.ok}
              aria-label="Filter conversations"
              data-testid={FLEET_TID.query}
            />
            <span className={parsed.ok ? 'hint' : 'bad'}>
              {parsed.ok ? `${shown.length} of ${lines.length} lines` : parsed.message}
            </span>
          </div>
          <FleetTable lines={shown} sort={sort} onSort={onSort} />
        </>
      ) : null}
    </>
  )
}

/**
 * The fleet: one config over many conversations. The workbench's config editor sits beside it;
 * every change re-runs the fleet (rows update as files finish, earlier figures dimmed meanwhile).
 */
export function FleetView() {
  const dragging = useFleetDrop()
  const problem = useFleetStore((s) => s.configProblem)
  return (
    <div className="fleet" data-testid={FLEET_TID.view}>
      <aside className="fleet-config column">
        <div className="fleet-config-head">
          <PresetPicker />
        </div>
        <ConfigEditor />
      </aside>
      <main className="fleet-main">
        <FleetToolbar />
        {problem ? (
          <p className="fleet-problem bad" data-testid={FLEET_TID.configProblem}>
            The config is invalid, so no file ran: {problem}
          </p>
        ) : null}
        <FleetResults />
      </main>
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-card">Drop to add to the fleet — read here, never uploaded.</div>
        </div>
      ) : null}
    </div>
  )
}
