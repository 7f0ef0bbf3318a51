import { CommandLayer } from '../commands/CommandLayer.tsx'
import { DropZone } from '../features/import/DropZone.tsx'
import { ImportGutter } from '../layout/Gutters.tsx'
import { AppRoot, MainLayout } from '../layout/Frame.tsx'
import { Sidebar } from '../layout/Sidebar.tsx'
import { Views } from '../layout/Views.tsx'
import { Header } from './Header.tsx'
import { ProgressBar } from './ProgressBar.tsx'
import { useStartup } from './useStartup.ts'

/**
 * The workbench shell: one screen that never scrolls (each pane scrolls inside itself) — the
 * header with the views, the load/config sidebar, and the main area (budget bar + current view).
 */
export function App() {
  useStartup()
  return (
    <AppRoot>
      <Header />
      <ProgressBar />
      <MainLayout>
        <Sidebar />
        <ImportGutter />
        <Views />
      </MainLayout>
      <DropZone />
      <CommandLayer />
    </AppRoot>
  )
}
