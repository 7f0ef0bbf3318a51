import { useReport, useStatus } from '../../../store/index.ts'
import { AccountingPanel } from '../accounting/AccountingPanel.tsx'
import { ContextStrip } from '../strip/ContextStrip.tsx'
import { CountsGrid } from './CountsGrid.tsx'
import { PreviewList } from './PreviewList.tsx'
import { TokensCard } from './TokensCard.tsx'

/**
 * The overview view: what the transcript holds (counts, tokens, reported usage and its
 * reconciliation), the before/after strip and a preview (format and parse warnings are in the
 * sidebar, beside the input they describe). Before any report it shows only the preview.
 */
export function OverviewView() {
  const status = useStatus()
  const { report } = useReport()
  if (status === 'idle' || (status === 'loading' && !report)) return null
  return (
    <div className="overview">
      {report ? (
        <>
          <CountsGrid report={report} />
          <TokensCard />
          <AccountingPanel />
          <ContextStrip />
        </>
      ) : null}
      <PreviewList />
    </div>
  )
}
