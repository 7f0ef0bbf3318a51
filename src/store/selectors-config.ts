/** Named hooks for the config editor: the worker's catalog and the config being edited. */
import { useShallow } from 'zustand/react/shallow'
import { workingConfigOf } from './slices/config.ts'
import { useAppStore } from './context.ts'
import type { AppState, LabStore } from './store.ts'

const selectCatalog = (s: AppState) => s.catalog
const selectCatalogState = (s: AppState) => ({
  catalogStatus: s.catalogStatus,
  catalogError: s.catalogError,
})
const selectConfigIssues = (s: AppState) => s.configIssues
const selectConfigActions = (s: AppState) => ({
  loadCatalog: s.loadCatalog,
  setConfig: s.setConfig,
  runPreset: s.runPreset,
})
const selectIsEdited = (s: AppState) => s.customConfig !== null

/** Presets, strategies (params JSON Schema, defaults) and the config JSON Schema; null until asked. */
export const useConfigCatalog = () => useAppStore(selectCatalog)
export const useCatalogState = () => useAppStore(useShallow(selectCatalogState))
/** The config on screen: the edited one, else the selected preset's (null before the catalog). */
export const useWorkingConfig = () => useAppStore(workingConfigOf)
/** The worker's validation issues for the edited config (empty when it ran). */
export const useConfigIssues = () => useAppStore(selectConfigIssues)
export const useConfigActions = () => useAppStore(useShallow(selectConfigActions))
/** True once the user changed the preset's config. */
export const useIsConfigEdited = () => useAppStore(selectIsEdited)

/** The working config right now, for event handlers that build the next one from it. */
export function currentWorkingConfig(store: LabStore): unknown {
  return workingConfigOf(store.getState())
}
export type { ConfigCatalog, CatalogStatus } from './slices/config.ts'
