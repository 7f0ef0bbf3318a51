import { useSyncExternalStore } from 'react'
import { clampPanel, PANEL_MIN, panelMax, usePanelLayout } from '../../store/index.ts'

/** The layout never grows past this (see `.layout` in styles.css) minus its padding. */
const LAYOUT_MAX = 1440
const LAYOUT_PADDING = 32

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}
const viewportWidth = () => window.innerWidth

/**
 * The panel widths to draw: the stored sizes clamped to this viewport (re-clamped on resize, while
 * the stored size is kept for a wider window later), with the bounds the splitters announce.
 */
export function usePanelWidths() {
  const { sizes, importCollapsed } = usePanelLayout()
  const viewport = useSyncExternalStore(subscribe, viewportWidth, () => 1280)
  const container = Math.min(viewport, LAYOUT_MAX) - LAYOUT_PADDING
  return {
    importCollapsed,
    importColumn: clampPanel('importColumn', sizes.importColumn, container),
    importMin: PANEL_MIN.importColumn,
    importMax: panelMax('importColumn', container),
    drawer: clampPanel('drawer', sizes.drawer, viewport),
    drawerMin: PANEL_MIN.drawer,
    drawerMax: panelMax('drawer', viewport),
  }
}
