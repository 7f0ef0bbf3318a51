import type { CSSProperties, ReactNode } from 'react'
import { useDensity, useDrawer, useMainView, useStatus } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { usePanelWidths } from './usePanelWidths.ts'

/**
 * The app's root element: load status, selection, drawer and view as data attributes (tests and
 * CSS read them) and the pane sizes as CSS variables. It takes its content as `children`, so a
 * new selection re-renders this element only, not every panel inside it.
 */
export function AppRoot({ children }: { readonly children: ReactNode }) {
  const status = useStatus()
  const drawer = useDrawer()
  const view = useMainView()
  const density = useDensity()
  const widths = usePanelWidths()
  // Custom properties are not in CSSProperties' type.
  const panelVars = {
    '--import-width': `${widths.importColumn}px`,
    '--drawer-width': `${widths.drawer}px`,
    '--timeline-height': `${widths.timeline}px`,
  } as CSSProperties
  return (
    <div
      className="app"
      data-testid={TID.app}
      data-status={status}
      data-selected-group={drawer.groupId ?? ''}
      data-drawer={drawer.open ? 'open' : 'closed'}
      data-view={view}
      data-density={density}
      style={panelVars}
    >
      {children}
    </div>
  )
}

/** The workspace under the header: sidebar | gutter | the main area; the sidebar can fold away. */
export function MainLayout({ children }: { readonly children: ReactNode }) {
  const { importCollapsed } = usePanelWidths()
  return (
    <main className="workspace" data-import-collapsed={importCollapsed}>
      {children}
    </main>
  )
}
