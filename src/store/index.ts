/** The app store: slices + named selector hooks. Components import from here only. */
export { useAppStore, type AppState } from './store.ts'
export * from './selectors.ts'
export * from './selectors-view.ts'
export { DEFAULT_PRESET, EDIT_DEBOUNCE_MS, PRESET_IDS, isPresetId } from './slices/run.ts'
export { DETAIL_TABS, TABLE_CHIPS } from './slices/view.ts'
export type * from './types.ts'
