import { useSyncExternalStore } from 'react'
import { clampPanel, PANEL_MIN, panelMax, usePanelLayout } from '../../store/index.ts'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}
// One string so React compares a primitive: a new object per read would loop.
const viewportSize = () => `${window.innerWidth}x${window.innerHeight}`

/**
 * The pane sizes to draw: the stored sizes clamped to this viewport (re-clamped on resize, while
 * the stored size is kept for a larger window later), with the bounds the splitters announce.
 */
export function usePanelWidths() {
  const { sizes, importCollapsed, budgetExpanded, timelineCollapsed } = usePanelLayout()
  const size = useSyncExternalStore(subscribe, viewportSize, () => '1440x900')
  const [width = 1440, height = 900] = size.split('x').map(Number)
  return {
    importCollapsed,
    budgetExpanded,
    timelineCollapsed,
    importColumn: clampPanel('importColumn', sizes.importColumn, width),
    importMin: PANEL_MIN.importColumn,
    importMax: panelMax('importColumn', width),
    drawer: clampPanel('drawer', sizes.drawer, width),
    drawerMin: PANEL_MIN.drawer,
    drawerMax: panelMax('drawer', width),
    timeline: clampPanel('timeline', sizes.timeline, height),
    timelineMin: PANEL_MIN.timeline,
    timelineMax: panelMax('timeline', height),
  }
}
