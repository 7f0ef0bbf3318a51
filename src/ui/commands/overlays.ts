/**
 * Which of the command layer's overlays is open (palette, `?` help). A tiny external store, like
 * the export dialogs': the header's `?` button opens the help without a React context.
 */
import { useSyncExternalStore } from 'react'

export type Overlay = 'none' | 'palette' | 'help'

let open: Overlay = 'none'
const listeners = new Set<() => void>()

export function setOverlay(next: Overlay): void {
  if (next === open) return
  open = next
  for (const listener of listeners) listener()
}

export const openShortcutsHelp = () => setOverlay('help')

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useOverlay(): Overlay {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => open,
  )
}
