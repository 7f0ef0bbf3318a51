import { useReport } from '../../store/index.ts'
import { ConfigEditor } from '../features/config/ConfigEditor.tsx'
import { ImportPanel } from '../features/import/ImportPanel.tsx'
import { TID } from '../testids.ts'

/**
 * The collapsible left sidebar: every way in (sample, paste, files, recent files) and, once a
 * transcript is loaded, the config editor. It scrolls on its own; the page never does.
 */
export function Sidebar() {
  const { report } = useReport()
  return (
    <div
      className="sidebar"
      id="import-column"
      data-testid={TID.sidebar}
      role="complementary"
      aria-label="Load and configure"
    >
      <ImportPanel />
      {report ? <ConfigEditor /> : null}
    </div>
  )
}
