import { useStatus } from '../../store/index.ts'
import { CommandLayer } from '../commands/CommandLayer.tsx'
import { DetailDrawer } from '../features/detail/DetailDrawer.tsx'
import { DropZone } from '../features/import/DropZone.tsx'
import { ImportPanel } from '../features/import/ImportPanel.tsx'
import { SummaryPanel } from '../features/summary/SummaryPanel.tsx'
import { TID } from '../testids.ts'
import { Header } from './Header.tsx'
import { ProgressBar } from './ProgressBar.tsx'
import { useStartup } from './useStartup.ts'

/** The shell: header, progress, the import column and the summary column. */
export function App() {
  useStartup()
  const status = useStatus()
  return (
    <div className="app" data-testid={TID.app} data-status={status}>
      <Header />
      <ProgressBar />
      <main className="layout">
        <ImportPanel />
        <SummaryPanel />
        <DetailDrawer />
      </main>
      <DropZone />
      <CommandLayer />
    </div>
  )
}
