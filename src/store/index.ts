/** The app store: slices + named selector hooks. Components import from here only. */
export { useAppStore, type AppState } from './store.ts'
export * from './selectors.ts'
export { DEFAULT_PRESET, PRESET_IDS, isPresetId } from './slices/run.ts'
export type * from './types.ts'
