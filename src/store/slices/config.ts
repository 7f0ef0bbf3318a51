import type { StateCreator } from 'zustand'
import type { ConfigModel, WirePreset, WireStrategy } from '../../worker/protocol.ts'
import type { AppState } from '../store.ts'

/** What the editor builds its forms from; fixed for the life of the worker, so asked once. */
export interface ConfigCatalog {
  readonly presets: readonly WirePreset[]
  readonly strategies: readonly WireStrategy[]
  /** JSON Schema of the whole config file (window, protections, triggers, …). */
  readonly configSchema: unknown
  /** Condition kinds, targets and number bounds, described once from the schema. */
  readonly model: ConfigModel
}

export type CatalogStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface ConfigSlice {
  catalog: ConfigCatalog | null
  catalogStatus: CatalogStatus
  catalogError: string | null
  /** Ask the worker for presets, strategies and schemas (once; later calls reuse the answer). */
  loadCatalog: () => Promise<void>
}

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get) => ({
  catalog: null,
  catalogStatus: 'idle',
  catalogError: null,

  loadCatalog: async () => {
    const status = get().catalogStatus
    if (status === 'loading' || status === 'ready') return
    set({ catalogStatus: 'loading', catalogError: null })
    // Asked once (the status guards a second asker), and no load supersedes it: the catalog does
    // not depend on the transcript.
    try {
      const catalog = await get().engine.request('describe', {})
      set({ catalog, catalogStatus: 'ready' })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      set({ catalogStatus: 'error', catalogError: message })
    }
  },
})

/** The config the editor shows: the edited one, else the selected preset's (null until known). */
export function workingConfigOf(state: AppState): unknown {
  if (state.customConfig !== null) return state.customConfig
  const preset = state.catalog?.presets.find((p) => p.id === state.selectedPreset)
  return preset ? preset.config : null
}
