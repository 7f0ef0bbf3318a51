import { useHasReport, useLoadedOnce, useReport } from '../../../store/index.ts'
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
/** The counts read the report; alone here so a new report re-renders them, not the panels. */
function Counts() {
  const { report } = useReport()
  return report ? <CountsGrid report={report} /> : null
}

export function OverviewView() {
  const loadedOnce = useLoadedOnce()
  const hasReport = useHasReport()
  if (!loadedOnce) return null
  return (
    <div className="overview">
      {hasReport ? (
        <>
          <Counts />
          <TokensCard />
          <AccountingPanel />
          <ContextStrip />
        </>
      ) : null}
      <PreviewList />
    </div>
  )
}
