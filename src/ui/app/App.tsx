import { CommandLayer } from '../commands/CommandLayer.tsx'
import { DetailDrawer } from '../features/detail/DetailDrawer.tsx'
import { DropZone } from '../features/import/DropZone.tsx'
import { ImportPanel } from '../features/import/ImportPanel.tsx'
import { SummaryPanel } from '../features/summary/SummaryPanel.tsx'
import { DrawerSplitter, ImportGutter } from '../layout/Gutters.tsx'
import { AppRoot, MainLayout } from '../layout/Frame.tsx'
import { Header } from './Header.tsx'
import { ProgressBar } from './ProgressBar.tsx'
import { useStartup } from './useStartup.ts'

/** The shell: header, progress, the import column and the summary column. */
export function App() {
  useStartup()
  return (
    <AppRoot>
      <Header />
      <ProgressBar />
      <MainLayout>
        <div className="import-slot" id="import-column">
          <ImportPanel />
        </div>
        <ImportGutter />
        <SummaryPanel />
        <DetailDrawer />
      </MainLayout>
      <DrawerSplitter />
      <DropZone />
      <CommandLayer />
    </AppRoot>
  )
}
