import { create } from 'zustand'
import { createConfigSlice, type ConfigSlice } from './slices/config.ts'
import { createNavSlice, type NavSlice } from './slices/nav.ts'
import { createPrefsSlice, type PrefsSlice } from './slices/prefs.ts'
import { createRecentSlice, type RecentSlice } from './slices/recent.ts'
import { createRunSlice, type RunSlice } from './slices/run.ts'
import { createSamplesSlice, type SamplesSlice } from './slices/samples.ts'
import { createTranscriptSlice, type TranscriptSlice } from './slices/transcript.ts'
import { createViewSlice, type ViewSlice } from './slices/view.ts'

/** The whole app state: one store composed of slices, each owning its actions. */
export type AppState = ConfigSlice &
  TranscriptSlice &
  SamplesSlice &
  PrefsSlice &
  RunSlice &
  ViewSlice &
  NavSlice &
  RecentSlice

export const useAppStore = create<AppState>()((...args) => ({
  ...createTranscriptSlice(...args),
  ...createSamplesSlice(...args),
  ...createPrefsSlice(...args),
  ...createRunSlice(...args),
  ...createConfigSlice(...args),
  ...createViewSlice(...args),
  ...createNavSlice(...args),
  ...createRecentSlice(...args),
}))
