import { useEffect } from 'react'
import { useLabStore } from '../../store/index.ts'
import { restoreUrlState, startUrlSync } from '../../store/urlSync.ts'

/** Module-level so StrictMode's double effect (and remounts) fetch and load only once. */
let started = false

/**
 * On first mount: restore the view from the URL (config first, so the first run already uses
 * it), then re-open what was open before (a transcript kept on this device, or a sample), else
 * the built-in sample (a first visit is never blank). The URL follows the store once the
 * restored selection is in place, so a reload mid-load loses nothing.
 */
export function useStartup(): void {
  const lab = useLabStore()
  useEffect(() => {
    if (started) return
    started = true
    void (async () => {
      const { settled } = await restoreUrlState(location.hash, lab)
      void settled.then(() => startUrlSync(lab))
      const store = lab.getState()
      void store.refreshRecent()
      // The sample list is needed either way (the picker, or the default sample): asked now, not
      // after the check for a transcript kept from last time.
      if (store.samplesStatus === 'idle') void store.fetchSamples()
      if (await store.restoreLastOpened()) return
      await lab.getState().openDefaultSample()
    })()
  }, [lab])
}
