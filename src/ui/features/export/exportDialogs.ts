/**
 * Which of the export feature's dialogs is open. A tiny external store rather than a store slice:
 * it is UI chrome, never in the URL or persisted, and the command registry (plain TS) must be
 * able to open the Export dialog without a React context.
 */
import { useSyncExternalStore } from 'react'

export type ExportDialog = 'none' | 'export' | 'import'

let open: ExportDialog = 'none'
const listeners = new Set<() => void>()

function set(next: ExportDialog): void {
  if (next === open) return
  open = next
  for (const listener of listeners) listener()
}

export const openExportDialog = () => set('export')
export const openImportDialog = () => set('import')
export const closeExportDialogs = () => set('none')

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useOpenExportDialog(): ExportDialog {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => open,
  )
}
