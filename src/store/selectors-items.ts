/** The conversations of a multi-item file, for the import panel's item picker. */
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from './context.ts'
import type { AppState } from './store.ts'

const selectFileItems = (s: AppState) => ({ items: s.items, item: s.item, status: s.status })
const selectOpenItem = (s: AppState) => s.openItem

/** The file's items (null for a one-conversation file), the loaded one and the load status. */
export const useFileItems = () => useAppStore(useShallow(selectFileItems))
export const useOpenItem = () => useAppStore(selectOpenItem)
