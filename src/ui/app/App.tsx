import { CommandLayer } from '../commands/CommandLayer.tsx'
import { DetailDrawer } from '../features/detail/DetailDrawer.tsx'
import { FleetBar } from '../features/fleet/FleetBar.tsx'
import { useFleetOpen } from '../features/fleet/FleetLayer.tsx'
import { FleetView } from '../features/fleet/FleetView.tsx'
import { DropZone } from '../features/import/DropZone.tsx'
import { ImportPanel } from '../features/import/ImportPanel.tsx'
import { SummaryPanel } from '../features/summary/SummaryPanel.tsx'
import { DrawerSplitter, ImportGutter } from '../layout/Gutters.tsx'
import { AppRoot, MainLayout } from '../layout/Frame.tsx'
import { Header } from './Header.tsx'
import { ProgressBar } from './ProgressBar.tsx'
import { useStartup } from './useStartup.ts'

/** The shell: header, progress, the import column and the summary column (or the fleet view). */
export function App() {
  useStartup()
  // The fleet view (issue 16) takes the workbench's place; the workbench state stays in the store.
  const fleetOpen = useFleetOpen()
  return (
    <AppRoot>
      <Header />
      <FleetBar />
      <ProgressBar />
      {fleetOpen ? (
        <FleetView />
      ) : (
        <MainLayout>
          <div className="import-slot" id="import-column">
            <ImportPanel />
          </div>
          <ImportGutter />
          <SummaryPanel />
          <DetailDrawer />
        </MainLayout>
      )}
      <DrawerSplitter />
      {fleetOpen ? null : <DropZone />}
      <CommandLayer />
    </AppRoot>
  )
}
