import { useEffect } from 'react'
import { useAppStore } from '../../store/index.ts'

/** Module-level so StrictMode's double effect (and remounts) fetch and load only once. */
let started = false

/** On first mount: list the samples and open the built-in one (a first visit is never blank). */
export function useStartup(): void {
  useEffect(() => {
    if (started) return
    started = true
    void useAppStore.getState().openDefaultSample()
  }, [])
}
