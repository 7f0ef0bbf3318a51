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
  /** Find in the list: the text typed (never in the URL) and the matching rows in display order. */
  findText: string
  findMatches: readonly string[]
  setFindText: (text: string) => void
  setFindMatches: (ids: readonly string[]) => void
}

function sameIds(a: readonly string[] | null, b: readonly string[]): boolean {
  return a !== null && a.length === b.length && a.every((id, i) => id === b[i])
}

export const createNavSlice: StateCreator<AppState, [], [], NavSlice> = (set, get) => ({
  visibleGroupIds: null,
  setVisibleGroupIds: (ids) => {
    // Same list again (a re-render with no change): keep the reference so subscribers stay quiet.
    if (sameIds(get().visibleGroupIds, ids)) return
    set({ visibleGroupIds: ids })
  },
  findText: '',
  findMatches: [],
  setFindText: (findText) => set({ findText }),
  setFindMatches: (ids) => {
    if (sameIds(get().findMatches, ids)) return
    set({ findMatches: ids })
  },
})
