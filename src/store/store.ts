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
 * The app's engine client with its worker started now, not on the first request: the worker's
 * chunk downloads and its modules evaluate while React mounts and the sample downloads, instead
 * of after (issue 14: the worker was created ~350 ms into the first view, when the sample's text
 * was in, and its start-up then stood between the text and the first budget). Where there are no
 * workers (node tests), the client starts one on the first request as before.
 */
function startedEngine(): EngineClient {
  const engine = new EngineClient()
  if (typeof Worker !== 'undefined') engine.start()
  return engine
}

/**
 * One lab: its store and its engine client (the app's worker starts at once, see
 * {@link startedEngine}). Created per instance — the app makes one in `main.tsx`, each test its
 * own with a fake worker — and handed to components through `LabStoreProvider`.
 */
export function createLabStore(engine: EngineClient = startedEngine()): LabStore {
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
