import { lazy, Suspense } from 'react'
import { useReport, useStatus } from '../../../store/index.ts'
import { AccountingPanel } from '../accounting/AccountingPanel.tsx'
import { CompactionPanel } from '../budget/CompactionPanel.tsx'
import { ConfigEditor } from '../config/ConfigEditor.tsx'
import { InvariantsPanel } from '../invariants/InvariantsPanel.tsx'
import { ContextStrip } from '../strip/ContextStrip.tsx'
import { GroupTable } from '../table/GroupTable.tsx'
import { ReplayTimeline } from '../timeline/ReplayTimeline.tsx'
import { CountsGrid } from './CountsGrid.tsx'
import { FormatCard } from './FormatCard.tsx'
import { PreviewList } from './PreviewList.tsx'
import { TokensCard } from './TokensCard.tsx'
import { WarningsList } from './WarningsList.tsx'

// Below the first view (and with recharts): their own chunks, fetched once the page is up, so the
// first budget does not wait for code it does not show (issue 14).
const SweepPanel = lazy(() =>
  import('../sweep/SweepPanel.tsx').then((m) => ({ default: m.SweepPanel })),
)
const ComparePanel = lazy(() =>
  import('../compare/ComparePanel.tsx').then((m) => ({ default: m.ComparePanel })),
)

/** Everything the first page knows about the loaded transcript. */
export function SummaryPanel() {
  const status = useStatus()
  const { report } = useReport()
  const empty = status === 'idle' || (status === 'loading' && !report)
  return (
    <div className="column summary-column">
      {empty ? (
        <div className="empty">
          {status === 'loading'
            ? 'Reading the transcript…'
            : 'Load a transcript to see its summary.'}
        </div>
      ) : (
        <>
          <FormatCard />
          {report ? (
            <>
              <CountsGrid report={report} />
              <TokensCard />
              <CompactionPanel />
              <AccountingPanel />
              <ConfigEditor />
              <ContextStrip />
              <ReplayTimeline />
              <InvariantsPanel />
              <GroupTable />
              <Suspense fallback={null}>
                <SweepPanel />
                <ComparePanel />
              </Suspense>
            </>
          ) : null}
          <WarningsList />
          <PreviewList />
        </>
      )}
    </div>
  )
}
