/** Named hooks over the view slice (selection, table filters, brush, detail drawer). */
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from './context.ts'
import type { AppState } from './store.ts'

const selectSelectedGroup = (s: AppState) => s.selectedGroup
const selectTableFilter = (s: AppState) => ({ chip: s.chip, query: s.query, brush: s.brush })
const selectDrawer = (s: AppState) => ({
  open: s.drawerOpen,
  tab: s.detailTab,
  groupId: s.selectedGroup,
})
const selectViewActions = (s: AppState) => ({
  selectGroup: s.selectGroup,
  setChip: s.setChip,
  setQuery: s.setQuery,
  setBrush: s.setBrush,
  openDrawer: s.openDrawer,
  closeDrawer: s.closeDrawer,
  setDetailTab: s.setDetailTab,
  setMainView: s.setMainView,
})
const selectMainView = (s: AppState) => s.mainView

/** The group selected in the strip, table or timeline (null when none). */
export const useSelectedGroup = () => useAppStore(selectSelectedGroup)
/** Status chip, filter grammar text and the timeline brush range. */
export const useTableFilter = () => useAppStore(useShallow(selectTableFilter))
export const useDrawer = () => useAppStore(useShallow(selectDrawer))
export const useViewActions = () => useAppStore(useShallow(selectViewActions))
/** Which workbench view is showing (groups, overview, sweep, compare). */
export const useMainView = () => useAppStore(selectMainView)
