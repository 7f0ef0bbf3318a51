import { useHasReport, useLoadedOnce } from '../../store/index.ts'
import { ConfigEditor } from '../features/config/ConfigEditor.tsx'
import { ImportPanel } from '../features/import/ImportPanel.tsx'
import { FormatCard } from '../features/summary/FormatCard.tsx'
import { WarningsList } from '../features/summary/WarningsList.tsx'
import { TID } from '../testids.ts'

/**
 * The collapsible left sidebar, about the input and the config: every way in (sample, paste,
 * files, recent files), what was detected (format, override, parse warnings) and, once a
 * transcript is loaded, the config editor. It scrolls on its own; the page never does.
 */
export function Sidebar() {
  // Booleans, not the status and report: the config editor under this re-rendered on each.
  const hasReport = useHasReport()
  const loadedOnce = useLoadedOnce()
  return (
    <div
      className="sidebar"
      id="import-column"
      data-testid={TID.sidebar}
      role="complementary"
      aria-label="Load and configure"
    >
      <ImportPanel />
      {loadedOnce ? <FormatCard /> : null}
      <WarningsList />
      {hasReport ? <ConfigEditor /> : null}
    </div>
  )
}
