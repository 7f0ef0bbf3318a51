import { useDrawer, useLayoutActions } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { Splitter } from './Splitter.tsx'
import { usePanelWidths } from './usePanelWidths.ts'
import './layout.css'

/** Between the import and summary columns: the collapse toggle and the column's splitter. */
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
        aria-label={collapsed ? 'Show the import column' : 'Hide the import column'}
        title={`${collapsed ? 'Show' : 'Hide'} the import column (b)`}
        onClick={toggleImportColumn}
        data-testid={TID.importToggle}
      >
        <span aria-hidden="true">{collapsed ? '›' : '‹'}</span>
      </button>
      {collapsed ? null : (
        <Splitter
          label="Resize the import column"
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

/** The detail drawer's left edge (the drawer reads `--drawer-width`); only while it is open. */
export function DrawerSplitter() {
  const widths = usePanelWidths()
  const { open } = useDrawer()
  const { setPanelSize } = useLayoutActions()
  if (!open) return null
  return (
    <Splitter
      label="Resize the detail drawer"
      value={widths.drawer}
      min={widths.drawerMin}
      max={widths.drawerMax}
      direction={-1}
      onChange={(px) => setPanelSize('drawer', px)}
      testId={TID.drawerSplitter}
      className="drawer-splitter"
    />
  )
}
