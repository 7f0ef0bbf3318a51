import type { StateCreator } from 'zustand'
import { readStored, writeStored } from '../persist.ts'
import type { AppState } from '../store.ts'

/** `system` follows prefers-color-scheme; the others pin a theme. */
export type ThemePref = 'system' | 'light' | 'dark'

const THEME_KEY = 'prefs.theme.v1'
const THEMES: readonly ThemePref[] = ['system', 'light', 'dark']

function isTheme(value: string | null): value is ThemePref {
  return THEMES.some((theme) => theme === value)
}

export function storedTheme(): ThemePref {
  const value = readStored(THEME_KEY)
  return isTheme(value) ? value : 'system'
}

/**
 * Row height and padding: `system` is compact with a fine pointer (mouse, trackpad) and
 * comfortable with a coarse one (touch), read from CSS `pointer` media; the others pin it.
 */
export type DensityPref = 'system' | 'compact' | 'comfortable'
const DENSITY_KEY = 'prefs.density.v1'
const DENSITIES: readonly DensityPref[] = ['system', 'compact', 'comfortable']

export function storedDensity(): DensityPref {
  const value = readStored(DENSITY_KEY)
  return DENSITIES.find((d) => d === value) ?? 'system'
}

/**
 * The resizable panes of the workbench, in CSS pixels: the left sidebar (load + config; its id
 * predates the sidebar), the detail pane on the right (widths) and the timeline on top (a height).
 */
export type PanelId = 'importColumn' | 'drawer' | 'timeline'
export type PanelSizes = Readonly<Record<PanelId, number>>

export interface PanelLayout {
  readonly sizes: PanelSizes
  /** The left sidebar folded away so the list gets the whole width. */
  readonly importCollapsed: boolean
  /** The budget bar opened into its table (facts, cost, per-category rows). */
  readonly budgetExpanded: boolean
  /** The timeline folded to its title line. */
  readonly timelineCollapsed: boolean
}

export const DEFAULT_PANEL_SIZES: PanelSizes = { importColumn: 270, drawer: 380, timeline: 120 }
/** Below these a panel stops being usable; the upper bound depends on the viewport. */
export const PANEL_MIN: PanelSizes = { importColumn: 220, drawer: 320, timeline: 90 }
/**
 * What the rest of the screen keeps when a pane is dragged as large as it can go: beside the
 * sidebar, a usable list and detail; beside the detail, the sidebar and a list; under the
 * timeline, the budget bar and ten rows of the list.
 */
export const PANEL_REST: PanelSizes = { importColumn: 820, drawer: 720, timeline: 430 }

/**
 * v2 of the stored layout: `{sizes: {importColumn, drawer, timeline}, importCollapsed,
 * budgetExpanded, timelineCollapsed}`. v1 (`{sizes: {importColumn, drawer}, importCollapsed}`,
 * the page-long layout) is read once when no v2 is there: its collapsed flag carries over, its
 * sizes (for a different layout) do not.
 */
const PANELS_KEY = 'prefs.panels.v2'
const PANELS_KEY_V1 = 'prefs.panels.v1'

/** The largest size a pane may take in a viewport this large (never below its minimum). */
export function panelMax(panel: PanelId, viewportExtent: number): number {
  return Math.max(PANEL_MIN[panel], Math.floor(viewportExtent - PANEL_REST[panel]))
}

/**
 * A size the pane can actually take here: finite, rounded, within min and the viewport max.
 * `viewportExtent` is the width for the side panes and the height for the timeline.
 */
export function clampPanel(panel: PanelId, size: number, viewportExtent: number): number {
  if (!Number.isFinite(size)) return DEFAULT_PANEL_SIZES[panel]
  return Math.min(panelMax(panel, viewportExtent), Math.max(PANEL_MIN[panel], Math.round(size)))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function storedSize(raw: Record<string, unknown>, panel: PanelId): number {
  const value = raw[panel]
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.round(value)
    : DEFAULT_PANEL_SIZES[panel]
}

export const DEFAULT_PANEL_LAYOUT: PanelLayout = {
  sizes: DEFAULT_PANEL_SIZES,
  importCollapsed: false,
  budgetExpanded: false,
  timelineCollapsed: false,
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const raw: unknown = JSON.parse(text)
    return isRecord(raw) ? raw : null
  } catch {
    return null
  }
}

/** Read the stored layout leniently: anything missing or malformed falls back to the default. */
export function parsePanelLayout(text: string | null): PanelLayout {
  const raw = parseJson(text)
  if (!raw) return DEFAULT_PANEL_LAYOUT
  const sizes = isRecord(raw.sizes) ? raw.sizes : {}
  return {
    sizes: {
      importColumn: storedSize(sizes, 'importColumn'),
      drawer: storedSize(sizes, 'drawer'),
      timeline: storedSize(sizes, 'timeline'),
    },
    importCollapsed: raw.importCollapsed === true,
    budgetExpanded: raw.budgetExpanded === true,
    timelineCollapsed: raw.timelineCollapsed === true,
  }
}

/** The v2 layout, or what survives of a v1 one (the collapsed sidebar), or the default. */
export function readPanelLayout(v2: string | null, v1: string | null): PanelLayout {
  if (v2 !== null) return parsePanelLayout(v2)
  const old = parseJson(v1)
  return { ...DEFAULT_PANEL_LAYOUT, importCollapsed: old?.importCollapsed === true }
}

function storeLayout(layout: PanelLayout): void {
  writeStored(PANELS_KEY, JSON.stringify(layout))
}

export interface PrefsSlice {
  theme: ThemePref
  setTheme: (theme: ThemePref) => void
  /** system → light → dark → system. */
  cycleTheme: () => void
  density: DensityPref
  /** system → compact → comfortable → system. */
  cycleDensity: () => void
  /**
   * Panel sizes as the user left them; the layout clamps them to the current viewport when it
   * renders, so a size saved on a wide screen still fits a narrow one without being forgotten.
   */
  panelSizes: PanelSizes
  importCollapsed: boolean
  budgetExpanded: boolean
  timelineCollapsed: boolean
  setPanelSize: (panel: PanelId, size: number) => void
  setImportCollapsed: (collapsed: boolean) => void
  toggleImportColumn: () => void
  toggleBudgetExpanded: () => void
  toggleTimeline: () => void
}

export const createPrefsSlice: StateCreator<AppState, [], [], PrefsSlice> = (set, get) => {
  const layout = readPanelLayout(readStored(PANELS_KEY), readStored(PANELS_KEY_V1))
  const persistLayout = () => {
    const s = get()
    storeLayout({
      sizes: s.panelSizes,
      importCollapsed: s.importCollapsed,
      budgetExpanded: s.budgetExpanded,
      timelineCollapsed: s.timelineCollapsed,
    })
  }
  return {
    theme: storedTheme(),
    setTheme: (theme) => {
      writeStored(THEME_KEY, theme)
      set({ theme })
    },
    cycleTheme: () => {
      const next = THEMES[(THEMES.indexOf(get().theme) + 1) % THEMES.length] ?? 'system'
      get().setTheme(next)
    },

    density: storedDensity(),
    cycleDensity: () => {
      const density = DENSITIES[(DENSITIES.indexOf(get().density) + 1) % DENSITIES.length]
      const next = density ?? 'system'
      writeStored(DENSITY_KEY, next)
      set({ density: next })
    },

    panelSizes: layout.sizes,
    importCollapsed: layout.importCollapsed,
    budgetExpanded: layout.budgetExpanded,
    timelineCollapsed: layout.timelineCollapsed,
    setPanelSize: (panel, size) => {
      if (!Number.isFinite(size) || size <= 0) return
      const rounded = Math.round(size)
      if (get().panelSizes[panel] === rounded) return
      set({ panelSizes: { ...get().panelSizes, [panel]: rounded } })
      persistLayout()
    },
    setImportCollapsed: (importCollapsed) => {
      set({ importCollapsed })
      persistLayout()
    },
    toggleImportColumn: () => get().setImportCollapsed(!get().importCollapsed),
    toggleBudgetExpanded: () => {
      set({ budgetExpanded: !get().budgetExpanded })
      persistLayout()
    },
    toggleTimeline: () => {
      set({ timelineCollapsed: !get().timelineCollapsed })
      persistLayout()
    },
  }
}
