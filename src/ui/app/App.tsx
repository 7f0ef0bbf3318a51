import { lazy, Suspense } from 'react'
import { CommandLayer } from '../commands/CommandLayer.tsx'
import { FleetBar } from '../features/fleet/FleetBar.tsx'
import { useFleetOpen } from '../features/fleet/FleetLayer.tsx'
import { DropZone } from '../features/import/DropZone.tsx'
import { ImportGutter } from '../layout/Gutters.tsx'
import { AppRoot, MainLayout } from '../layout/Frame.tsx'
import { Sidebar } from '../layout/Sidebar.tsx'
import { Views } from '../layout/Views.tsx'
import { Header } from './Header.tsx'
import { ProgressBar } from './ProgressBar.tsx'
import { useStartup } from './useStartup.ts'

// The fleet (issue 16) is not part of the first view, and brings recharts: its own chunk.
const FleetView = lazy(() =>
  import('../features/fleet/FleetView.tsx').then((m) => ({ default: m.FleetView })),
)

/**
 * The workbench shell: one screen that never scrolls (each pane scrolls inside itself) — the
 * header with the views, the load/config sidebar, and the main area (budget bar + current view).
 * The fleet view takes the workbench's place; the workbench state stays in the store.
 */
export function App() {
  useStartup()
  const fleetOpen = useFleetOpen()
  return (
    <AppRoot>
      <Header />
      <FleetBar />
      <ProgressBar />
      {fleetOpen ? (
        <Suspense fallback={<div className="empty">Loading the fleet view…</div>}>
          <FleetView />
        </Suspense>
      ) : (
        <MainLayout>
          <Sidebar />
          <ImportGutter />
          <Views />
        </MainLayout>
      )}
      {fleetOpen ? null : <DropZone />}
      <CommandLayer />
    </AppRoot>
  )
}
