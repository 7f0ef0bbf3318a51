import { createStore, type StoreApi } from 'zustand'
import { EngineClient } from '../worker/client.ts'
import { createConfigSlice, type ConfigSlice } from './slices/config.ts'
import { createNavSlice, type NavSlice } from './slices/nav.ts'
import { createPrefsSlice, type PrefsSlice } from './slices/prefs.ts'
import { createRecentSlice, type RecentSlice } from './slices/recent.ts'
import { createRunSlice, type RunSlice } from './slices/run.ts'
import { createSamplesSlice, type SamplesSlice } from './slices/samples.ts'
import { createTranscriptSlice, type TranscriptSlice } from './slices/transcript.ts'
import { createViewSlice, type ViewSlice } from './slices/view.ts'

/** The engine client this store's actions (and its views' requests) go through. */
export interface EngineSlice {
  readonly engine: EngineClient
}

/** The whole app state: one store composed of slices, each owning its actions. */
export type AppState = EngineSlice &
  ConfigSlice &
  TranscriptSlice &
  SamplesSlice &
  PrefsSlice &
  RunSlice &
  ViewSlice &
  NavSlice &
  RecentSlice

export type LabStore = StoreApi<AppState>

/**
 * One lab: its store and its engine client (a worker, started on the first request). Created per
 * instance — the app makes one in `main.tsx`, each test its own with a fake worker — and handed
 * to components through `LabStoreProvider`.
 */
export function createLabStore(engine: EngineClient = new EngineClient()): LabStore {
  return createStore<AppState>()((...args) => ({
    engine,
    ...createTranscriptSlice(...args),
    ...createSamplesSlice(...args),
    ...createPrefsSlice(...args),
    ...createRunSlice(...args),
    ...createConfigSlice(...args),
    ...createViewSlice(...args),
    ...createNavSlice(...args),
    ...createRecentSlice(...args),
  }))
}
