import type { StateCreator } from 'zustand'
import { isStale } from '../../worker/client.ts'
import type { WirePreset, WireStrategy } from '../../worker/protocol.ts'
import { engineClient } from '../engine.ts'
import type { AppState } from '../store.ts'

/** What the editor builds its forms from; fixed for the life of the worker, so asked once. */
export interface ConfigCatalog {
  readonly presets: readonly WirePreset[]
  readonly strategies: readonly WireStrategy[]
  /** JSON Schema of the whole config file (window, protections, triggers, …). */
  readonly configSchema: unknown
}

export type CatalogStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface ConfigSlice {
  catalog: ConfigCatalog | null
  catalogStatus: CatalogStatus
  catalogError: string | null
  /** Ask the worker for presets, strategies and schemas (once; later calls reuse the answer). */
  loadCatalog: () => Promise<void>
}

// Another feature asking `describe` at the same moment makes our request stale (one channel):
// the answer is the same, so ask again a few times rather than give up, after a growing pause
// so two askers that both retry at once do not keep superseding each other.
const STALE_RETRIES = 5
const RETRY_MS = 40

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get) => ({
  catalog: null,
  catalogStatus: 'idle',
  catalogError: null,

  loadCatalog: async () => {
    const status = get().catalogStatus
    if (status === 'loading' || status === 'ready') return
    set({ catalogStatus: 'loading', catalogError: null })
    for (let attempt = 0; attempt <= STALE_RETRIES; attempt++) {
      try {
        const { presets, strategies, configSchema } = await engineClient().describe().promise
        set({ catalog: { presets, strategies, configSchema }, catalogStatus: 'ready' })
        return
      } catch (error) {
        if (isStale(error) && attempt < STALE_RETRIES) {
          await pause(RETRY_MS * 2 ** attempt)
          continue
        }
        const message = error instanceof Error ? error.message : String(error)
        set({ catalogStatus: 'error', catalogError: message })
        return
      }
    }
  },
})

/** The config the editor shows: the edited one, else the selected preset's (null until known). */
export function workingConfigOf(state: AppState): unknown {
  if (state.customConfig !== null) return state.customConfig
  const preset = state.catalog?.presets.find((p) => p.id === state.selectedPreset)
  return preset ? preset.config : null
}
