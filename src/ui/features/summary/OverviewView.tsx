import { useReport, useStatus } from '../../../store/index.ts'
import { AccountingPanel } from '../accounting/AccountingPanel.tsx'
import { ContextStrip } from '../strip/ContextStrip.tsx'
import { CountsGrid } from './CountsGrid.tsx'
import { FormatCard } from './FormatCard.tsx'
import { PreviewList } from './PreviewList.tsx'
import { TokensCard } from './TokensCard.tsx'
import { WarningsList } from './WarningsList.tsx'

/**
 * The overview view: what the transcript is (format, counts, tokens, reported usage and its
 * reconciliation), the before/after strip, parse warnings and a preview. Before any report it
 * shows only the format card, warnings and preview (what a failed first load has).
 */
export function OverviewView() {
  const status = useStatus()
  const { report } = useReport()
  if (status === 'idle' || (status === 'loading' && !report)) return null
  return (
    <div className="overview">
      <FormatCard />
      {report ? (
        <>
          <CountsGrid report={report} />
          <TokensCard />
          <AccountingPanel />
          <ContextStrip />
        </>
      ) : null}
      <WarningsList />
      <PreviewList />
    </div>
  )
}
