import type { StateCreator } from 'zustand'
import type { AppState } from '../store.ts'

/**
 * The rows the table shows right now, in display order (after chip, query, brush and sort). The
 * table publishes it; keyboard navigation (j/k, Home/End) reads it. A separate channel rather
 * than a table import keeps the command layer ignorant of how the table filters and sorts.
 */
export interface NavSlice {
  /** Null until a table publishes its rows (an empty list means "nothing matches"). */
  visibleGroupIds: readonly string[] | null
  setVisibleGroupIds: (ids: readonly string[]) => void
}

export const createNavSlice: StateCreator<AppState, [], [], NavSlice> = (set, get) => ({
  visibleGroupIds: null,
  setVisibleGroupIds: (ids) => {
    // Same list again (a re-render with no change): keep the reference so subscribers stay quiet.
    const current = get().visibleGroupIds
    if (current && current.length === ids.length && current.every((id, i) => id === ids[i])) return
    set({ visibleGroupIds: ids })
  },
})
