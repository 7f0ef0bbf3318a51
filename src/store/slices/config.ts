import type { StateCreator, StoreApi } from 'zustand'
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

/** A run (or the load before it) is under way: the first budget is being computed. */
const busy = (s: AppState) => s.status === 'loading' || s.runStatus === 'running'

/**
 * Resolves once no load or run is under way, checked a task later each time (a load's reply and
 * the run it starts are two store updates in one task: between them nothing looks busy).
 */
function whenIdle(api: StoreApi<AppState>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (busy(api.getState())) return
      unsubscribe()
      resolve()
    }
    const unsubscribe = api.subscribe(() => setTimeout(check, 0))
    setTimeout(check, 0)
  })
}

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get, api) => ({
  catalog: null,
  catalogStatus: 'idle',
  catalogError: null,

  loadCatalog: async () => {
    const status = get().catalogStatus
    if (status === 'loading' || status === 'ready') return
    set({ catalogStatus: 'loading', catalogError: null })
    // Asked once (the status guards a second asker), and no load supersedes it: the catalog does
    // not depend on the transcript. Asked after the first budget: every strategy's JSON Schema is
    // built in the worker (50-130 ms on the first view), which ran between the first run's phases.
    await whenIdle(api)
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
