import { create } from 'zustand'
import { createPrefsSlice, type PrefsSlice } from './slices/prefs.ts'
import { createRunSlice, type RunSlice } from './slices/run.ts'
import { createSamplesSlice, type SamplesSlice } from './slices/samples.ts'
import { createTranscriptSlice, type TranscriptSlice } from './slices/transcript.ts'
import { createViewSlice, type ViewSlice } from './slices/view.ts'

/** The whole app state: one store composed of slices, each owning its actions. */
export type AppState = TranscriptSlice & SamplesSlice & PrefsSlice & RunSlice & ViewSlice

export const useAppStore = create<AppState>()((...args) => ({
  ...createTranscriptSlice(...args),
  ...createSamplesSlice(...args),
  ...createPrefsSlice(...args),
  ...createRunSlice(...args),
  ...createViewSlice(...args),
}))
