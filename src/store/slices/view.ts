import type { StateCreator } from 'zustand'
import type { AppState } from '../store.ts'

/** The table's status chips (one at a time; the filter grammar refines within it). */
export type TableChip = 'all' | 'kept' | 'excluded' | 'stubbed' | 'changed' | 'protected'
export const TABLE_CHIPS: readonly TableChip[] = [
  'all',
  'kept',
  'excluded',
  'stubbed',
  'changed',
  'protected',
]

export type DetailTab = 'pretty' | 'raw' | 'diff' | 'why' | 'tokens'
export const DETAIL_TABS: readonly DetailTab[] = ['pretty', 'raw', 'diff', 'why', 'tokens']

/**
 * The workbench's views: the group list (timeline, list and detail on one screen), the overview
 * (format, counts, tokens, accounting, strip, warnings), the sweep and the comparison.
 */
export type MainView = 'groups' | 'overview' | 'sweep' | 'compare'
export const MAIN_VIEWS: readonly MainView[] = ['groups', 'overview', 'sweep', 'compare']

/** A range of conversation message indexes (inclusive), e.g. from the timeline's brush. */
export interface MessageRange {
  readonly from: number
  readonly to: number
}

/**
 * What the user is looking at: the selected group (shared by strip, table, timeline and detail),
 * the table's filters, the timeline brush and the detail drawer. Part of it is mirrored in the URL
 * (never transcript text).
 */
export interface ViewSlice {
  selectedGroup: string | null
  chip: TableChip
  /** Filter grammar text: `tool:read status:stubbed tokens>1000 -role:user /regex/`. */
  query: string
  brush: MessageRange | null
  drawerOpen: boolean
  detailTab: DetailTab
  mainView: MainView

  /** Select a group (null clears); `open` also opens the detail drawer. */
  selectGroup: (id: string | null, options?: { readonly open?: boolean }) => void
  setChip: (chip: TableChip) => void
  setQuery: (query: string) => void
  setBrush: (range: MessageRange | null) => void
  openDrawer: () => void
  closeDrawer: () => void
  setDetailTab: (tab: DetailTab) => void
  setMainView: (view: MainView) => void
  /** Forget selection and filters tied to the old transcript (a new load). */
  resetView: () => void
}

export const createViewSlice: StateCreator<AppState, [], [], ViewSlice> = (set) => ({
  selectedGroup: null,
  chip: 'all',
  query: '',
  brush: null,
  drawerOpen: false,
  detailTab: 'pretty',
  mainView: 'groups',

  // A group picked in the overview (its strip, a flagged call) is shown where groups live: the
  // groups view, its row in the list. The comparison has its own rows beside the detail pane.
  selectGroup: (id, options) =>
    set((s) => ({
      selectedGroup: id,
      drawerOpen: id === null ? false : options?.open ? true : s.drawerOpen,
      ...(id !== null && s.mainView === 'overview' ? { mainView: 'groups' as const } : {}),
    })),
  setChip: (chip) => set({ chip }),
  setQuery: (query) => set({ query }),
  setBrush: (brush) => set({ brush }),
  openDrawer: () => set((s) => ({ drawerOpen: s.selectedGroup !== null })),
  closeDrawer: () => set({ drawerOpen: false }),
  setDetailTab: (detailTab) => set({ detailTab }),
  setMainView: (mainView) => set({ mainView }),
  resetView: () => set({ selectedGroup: null, brush: null, drawerOpen: false }),
})
