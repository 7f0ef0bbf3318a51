import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useHasReport, useHasRun, useMainView, useStatus } from '../../store/index.ts'
import { useMountGate } from '../lib/useMountGate.ts'
import type { MainView } from '../../store/index.ts'
import { CompactionPanel } from '../features/budget/CompactionPanel.tsx'
import { LoadError } from '../features/import/LoadError.tsx'
import { OverviewView } from '../features/summary/OverviewView.tsx'
import { TID } from '../testids.ts'
import { DetailPane } from './DetailPane.tsx'
import { GroupsView } from './GroupsView.tsx'
import { Staged } from './Staged.tsx'
import { DrawerSplitter } from './Gutters.tsx'

// Not in the first view (and with recharts): their own chunks, mounted (and so fetched) by
// `AfterFirstRun`, so the first budget does not wait for code it does not show (issue 14).
const SweepPanel = lazy(() =>
  import('../features/sweep/SweepPanel.tsx').then((m) => ({ default: m.SweepPanel })),
)
const ComparePanel = lazy(() =>
  import('../features/compare/ComparePanel.tsx').then((m) => ({ default: m.ComparePanel })),
)

function ViewPanel(props: {
  readonly id: MainView
  readonly current: MainView
  readonly children: ReactNode
}) {
  const { id, current, children } = props
  // Hidden views stay mounted: a sweep or comparison keeps its result while the list is shown.
  return (
    <div
      className={`view view-${id}`}
      hidden={id !== current}
      data-testid={TID.viewPanel}
      data-view={id}
    >
      {children}
    </div>
  )
}

/**
 * A hidden view's panel, mounted once it is shown or a few frames after the first run is on
 * screen, and kept mounted from then on (it keeps its result while another view is shown).
 * Mounted with the report, the sweep and compare chunks and recharts (400 kB) were fetched and
 * compiled while the first budget was still being worked out (issue 14: first view ≤ 1 s).
 */
function AfterFirstRun({
  shown,
  children,
}: {
  readonly shown: boolean
  readonly children: ReactNode
}) {
  const hasRun = useHasRun()
  const staged = useMountGate(hasRun, 6)
  const [mounted, setMounted] = useState(false)
  // Latched while rendering (state derived from props, as React recommends): never unmounted.
  if (!mounted && (shown || (hasRun && staged))) setMounted(true)
  return mounted || shown ? children : null
}

/** Before any transcript is in: what the main area says meanwhile. */
function NoReport() {
  const status = useStatus()
  return (
    <div className="main-area">
      {/* Keeps the skip link's target in the page before a transcript is loaded. */}
      <div className="empty" id="group-list" tabIndex={-1}>
        {status === 'loading' ? 'Reading the transcript…' : 'Load a transcript to see its groups.'}
      </div>
      {/* The overview holds the format card, warnings and preview a failed first load needs. */}
      <OverviewView />
    </div>
  )
}

/**
 * The main area: the budget bar, then the current view beside the detail pane (a group picked
 * in any view shows there); each pane scrolls inside itself.
 */
export function Views() {
  // TRICKY: no load status here. Every panel renders under this component; reading the status
  // (or the reports) re-rendered all of them when a paste or drop started loading (130 ms in the paste event's
  // task on a 10,000-message session, issue 14). Only `NoReport` needs it.
  const hasReport = useHasReport()
  const view = useMainView()
  if (!hasReport) return <NoReport />
  return (
    <div className="main-area">
      <LoadError placement="main" />
      <CompactionPanel />
      <div className="main-split">
        <div className="views">
          <ViewPanel id="groups" current={view}>
            <GroupsView />
          </ViewPanel>
          <ViewPanel id="overview" current={view}>
            {/* Hidden unless chosen: after the groups view's own stages (see Staged). */}
            <Staged frames={view === 'overview' ? 1 : 3}>
              <OverviewView />
            </Staged>
          </ViewPanel>
          <ViewPanel id="sweep" current={view}>
            <AfterFirstRun shown={view === 'sweep'}>
              <Suspense fallback={null}>
                <SweepPanel />
              </Suspense>
            </AfterFirstRun>
          </ViewPanel>
          <ViewPanel id="compare" current={view}>
            <AfterFirstRun shown={view === 'compare'}>
              <Suspense fallback={null}>
                <ComparePanel />
              </Suspense>
            </AfterFirstRun>
          </ViewPanel>
        </div>
        <DrawerSplitter />
        <DetailPane />
      </div>
    </div>
  )
}
