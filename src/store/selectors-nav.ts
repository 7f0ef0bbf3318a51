/**
 * Named hooks for keyboard navigation (the table's visible row order) and the panel layout
 * (resizable import column and detail drawer, both remembered in localStorage).
 */
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from './context.ts'
import type { AppState } from './store.ts'

export { clampPanel, DEFAULT_PANEL_SIZES, PANEL_MIN, panelMax } from './slices/prefs.ts'
export type { PanelId, PanelSizes } from './slices/prefs.ts'

const selectVisibleGroupIds = (s: AppState) => s.visibleGroupIds
const selectNavActions = (s: AppState) => ({
  setVisibleGroupIds: s.setVisibleGroupIds,
  setFindText: s.setFindText,
  setFindMatches: s.setFindMatches,
})
const selectFind = (s: AppState) => ({ text: s.findText, matches: s.findMatches })
const selectPanelLayout = (s: AppState) => ({
  sizes: s.panelSizes,
  importCollapsed: s.importCollapsed,
  budgetExpanded: s.budgetExpanded,
  timelineCollapsed: s.timelineCollapsed,
})
const selectLayoutActions = (s: AppState) => ({
  setPanelSize: s.setPanelSize,
  setImportCollapsed: s.setImportCollapsed,
  toggleImportColumn: s.toggleImportColumn,
  toggleBudgetExpanded: s.toggleBudgetExpanded,
  toggleTimeline: s.toggleTimeline,
})

/** Group ids of the table's rows as displayed (filtered and sorted); null before a table published. */
export const useVisibleGroupIds = () => useAppStore(selectVisibleGroupIds)
/** `setVisibleGroupIds(ids)`: the table calls it with its rows in display order. */
export const useNavActions = () => useAppStore(useShallow(selectNavActions))
/** Stored panel sizes (unclamped) and whether the import column is collapsed. */
export const usePanelLayout = () => useAppStore(useShallow(selectPanelLayout))
export const useLayoutActions = () => useAppStore(useShallow(selectLayoutActions))
/** Find in the list: the text and the matching rows (display order). */
export const useFind = () => useAppStore(useShallow(selectFind))
