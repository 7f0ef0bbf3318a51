import { useLayoutActions } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { Splitter } from './Splitter.tsx'
import { usePanelWidths } from './usePanelWidths.ts'
import './layout.css'

/** Between the sidebar and the main area: the collapse toggle and the sidebar's splitter. */
export function ImportGutter() {
  const widths = usePanelWidths()
  const { setPanelSize, toggleImportColumn } = useLayoutActions()
  const collapsed = widths.importCollapsed
  return (
    <div className="gutter">
      <button
        type="button"
        className="gutter-toggle"
        aria-expanded={!collapsed}
        aria-controls="import-column"
        aria-label={collapsed ? 'Show the sidebar' : 'Hide the sidebar'}
        title={`${collapsed ? 'Show' : 'Hide'} the load and config sidebar (b)`}
        onClick={toggleImportColumn}
        data-testid={TID.importToggle}
      >
        <span aria-hidden="true">{collapsed ? '›' : '‹'}</span>
      </button>
      {collapsed ? null : (
        <Splitter
          label="Resize the sidebar"
          value={widths.importColumn}
          min={widths.importMin}
          max={widths.importMax}
          direction={1}
          onChange={(px) => setPanelSize('importColumn', px)}
          controls="import-column"
          testId={TID.importSplitter}
          className="gutter-splitter"
        />
      )}
    </div>
  )
}

/** Between the list and the detail pane (which reads `--drawer-width`). */
export function DrawerSplitter() {
  const widths = usePanelWidths()
  const { setPanelSize } = useLayoutActions()
  return (
    <Splitter
      label="Resize the detail pane"
      value={widths.drawer}
      min={widths.drawerMin}
      max={widths.drawerMax}
      direction={-1}
      onChange={(px) => setPanelSize('drawer', px)}
      controls="detail-pane"
      testId={TID.drawerSplitter}
      className="drawer-splitter"
    />
  )
}
