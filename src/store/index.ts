/** The app store: slices + named selector hooks. Components import from here only. */
export { createLabStore, type AppState, type LabStore } from './store.ts'
export { LabStoreProvider, useAppStore, useEngineClient, useLabStore } from './context.ts'
export * from './selectors.ts'
export * from './selectors-view.ts'
export * from './selectors-detail.ts'
export * from './selectors-config.ts'
export * from './selectors-nav.ts'
export { LARGE_PASTE_CHARS } from './slices/transcript.ts'
export { DEFAULT_PRESET, EDIT_DEBOUNCE_MS, PRESET_IDS, isPresetId } from './slices/run.ts'
export { DETAIL_TABS, MAIN_VIEWS, TABLE_CHIPS } from './slices/view.ts'
export type * from './types.ts'
export * from './selectors-sweep.ts'
export * from './selectors-table.ts'
export * from './selectors-export.ts'
export * from './selectors-items.ts'
// The fleet view's worker pool (its own client, beside the engine client the lab store holds).
export { FleetPool, type FleetTaskResult } from '../worker/pool.ts'
export {
  failureOf,
  useEngineRequest,
  type EngineRequest,
  type EngineRequestState,
  type Failure,
  type Settled,
} from './useEngineRequest.ts'
