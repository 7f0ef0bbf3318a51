/**
 * The presets' full configs and the working config, for the sweep and compare panels. Both read
 * the one catalog the config slice fetches from the worker (`describe`), so no second request
 * races the editor's.
 */
import { useEffect } from 'react'
import {
  useCatalogState,
  useConfigActions,
  useConfigCatalog,
  useWorkingConfig,
} from '../../../store/index.ts'
import type { WirePreset } from '../../../store/index.ts'

/** Every preset with its full config; null until the worker answered. */
export function usePresets(): readonly WirePreset[] | null {
  const catalog = useConfigCatalog()
  const { catalogStatus } = useCatalogState()
  const { loadCatalog } = useConfigActions()
  useEffect(() => {
    // Usually the editor asked already; this covers a panel mounted on its own.
    if (catalogStatus === 'idle') void loadCatalog()
  }, [catalogStatus, loadCatalog])
  return catalog?.presets ?? null
}

/**
 * The config the user is looking at: the edited one, or else the selected preset's full config
 * (null until the catalog arrived).
 */
export function useCurrentConfig(): unknown {
  usePresets()
  return useWorkingConfig()
}
