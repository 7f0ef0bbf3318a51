import type { StateCreator } from 'zustand'
import { ConfigInvalidError, isStale } from '../../worker/client.ts'
import type { RunSummary } from '../../worker/protocol.ts'
import { engineClient } from '../engine.ts'
import type { AppState } from '../store.ts'

/**
 * The preset ids of `src/config/presets.ts`, in the same order. Copied rather than imported:
 * presets.ts pulls in the engine's strategy registry, which belongs in the worker bundle, not on
 * the UI thread. `run.test.ts` keeps the two lists equal.
 */
export const PRESET_IDS = [
  'recommended',
  'lip',
  'adachsoft',
  'falai',
  'opencode',
  'maf-context-window',
  'anthropic-clear-tool-uses',
] as const
export type PresetId = (typeof PRESET_IDS)[number]

export const DEFAULT_PRESET: PresetId = 'recommended'

export function isPresetId(value: string): value is PresetId {
  return PRESET_IDS.some((id) => id === value)
}

export type RunStatus = 'idle' | 'running' | 'done' | 'error'

/** A problem with the config, at the path where it is. */
export interface ConfigIssue {
  readonly path: string
  readonly message: string
}

/** How far the worker is with the current run (phases, not tokens). */
export interface RunProgress {
  readonly done: number
  readonly total: number
}

export interface RunSlice {
  selectedPreset: PresetId
  runStatus: RunStatus
  /** The latest finished run on the loaded transcript; null before the first run or after a load. */
  summary: RunSummary | null
  /** Set when the worker refused the config; nothing ran. */
  configIssues: readonly ConfigIssue[]
  /** An unexpected failure of the run (a bug, not a bad config). */
  runError: string | null
  runProgress: RunProgress | null

  /** Select a preset and run it on the loaded transcript (or as soon as the exact count is in). */
  runPreset: (id: PresetId) => Promise<void>
  /** Forget the run: a new transcript is being loaded. */
  clearRun: () => void
}

interface ActiveRun {
  readonly id: number
  cancel(): void
}

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => {
  // The in-flight run; not state, because nothing renders it.
  let active: ActiveRun | null = null

  return {
    selectedPreset: DEFAULT_PRESET,
    runStatus: 'idle',
    summary: null,
    configIssues: [],
    runError: null,
    runProgress: null,

    runPreset: async (id) => {
      set({ selectedPreset: id })
      const { status, report, progress } = get()
      // The client keeps only its newest request, so a run started now would make a load or count
      // still under way stale. Instead the run that follows the exact count uses this preset.
      if (status !== 'loaded' || !report || progress) return
      active?.cancel()
      const handle = engineClient().run(null, {
        preset: id,
        replay: true,
        onProgress: (p: RunProgress) => {
          if (active?.id === handle.id) set({ runProgress: { done: p.done, total: p.total } })
        },
      })
      active = handle
      set({ runStatus: 'running', runError: null, configIssues: [], runProgress: null })
      try {
        const summary = await handle.promise
        if (active?.id !== handle.id) return
        active = null
        set({ runStatus: 'done', summary, runProgress: null })
      } catch (error) {
        if (active?.id !== handle.id) return
        active = null
        if (isStale(error)) {
          // Superseded by a load or count, not by another run: fall back to what we had.
          set({ runStatus: get().summary ? 'done' : 'idle', runProgress: null })
        } else if (error instanceof ConfigInvalidError) {
          set({
            runStatus: 'error',
            configIssues: error.issues,
            runError: 'The config is invalid; nothing ran.',
            runProgress: null,
          })
        } else {
          const message = error instanceof Error ? error.message : String(error)
          set({ runStatus: 'error', runError: message, runProgress: null })
        }
      }
    },

    clearRun: () => {
      const handle = active
      active = null
      handle?.cancel()
      set({
        runStatus: 'idle',
        summary: null,
        configIssues: [],
        runError: null,
        runProgress: null,
      })
    },
  }
}
