import type { CSSProperties, ReactNode } from 'react'
import { useDrawer, useStatus } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { usePanelWidths } from './usePanelWidths.ts'

/**
 * The app's root element: load status, selection and drawer state as data attributes (tests and
 * CSS read them) and the panel widths as CSS variables. It takes its content as `children`, so a
 * new selection re-renders this element only, not every panel inside it.
 */
export function AppRoot({ children }: { readonly children: ReactNode }) {
  const status = useStatus()
  const drawer = useDrawer()
  const widths = usePanelWidths()
  // Custom properties are not in CSSProperties' type; the drawer reads --drawer-width.
  const panelVars = {
    '--import-width': `${widths.importColumn}px`,
    '--drawer-width': `${widths.drawer}px`,
  } as CSSProperties
  return (
    <div
      className="app"
      data-testid={TID.app}
      data-status={status}
      data-selected-group={drawer.groupId ?? ''}
      data-drawer={drawer.open ? 'open' : 'closed'}
      style={panelVars}
    >
      {children}
    </div>
  )
}

/** The two-column grid (import | gutter | summary); the import column can be collapsed. */
export function MainLayout({ children }: { readonly children: ReactNode }) {
  const { importCollapsed } = usePanelWidths()
  return (
    <main className="layout resizable" data-import-collapsed={importCollapsed}>
      {children}
    </main>
  )
}
