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

/** The resizable panels, in CSS pixels. */
export type PanelId = 'importColumn' | 'drawer'
export type PanelSizes = Readonly<Record<PanelId, number>>

export interface PanelLayout {
  readonly sizes: PanelSizes
  /** The import column folded away so the summary gets the whole width. */
  readonly importCollapsed: boolean
}

export const DEFAULT_PANEL_SIZES: PanelSizes = { importColumn: 440, drawer: 560 }
/** Below these a panel stops being usable; the upper bound depends on the viewport. */
export const PANEL_MIN: PanelSizes = { importColumn: 260, drawer: 320 }
/** Width the other side keeps when a panel is dragged as wide as it can go. */
export const PANEL_REST: PanelSizes = { importColumn: 420, drawer: 240 }

/** v1 of the stored layout: `{sizes: {importColumn, drawer}, importCollapsed}`. */
const PANELS_KEY = 'prefs.panels.v1'

/** The largest size a panel may take in a viewport this wide (never below its minimum). */
export function panelMax(panel: PanelId, viewportWidth: number): number {
  return Math.max(PANEL_MIN[panel], Math.floor(viewportWidth - PANEL_REST[panel]))
}

/** A size the panel can actually take here: finite, rounded, within min and the viewport max. */
export function clampPanel(panel: PanelId, size: number, viewportWidth: number): number {
  if (!Number.isFinite(size)) return DEFAULT_PANEL_SIZES[panel]
  return Math.min(panelMax(panel, viewportWidth), Math.max(PANEL_MIN[panel], Math.round(size)))
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

/** Read the stored layout leniently: anything missing or malformed falls back to the default. */
export function parsePanelLayout(text: string | null): PanelLayout {
  const fallback: PanelLayout = { sizes: DEFAULT_PANEL_SIZES, importCollapsed: false }
  if (text === null) return fallback
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return fallback
  }
  if (!isRecord(raw)) return fallback
  const sizes = isRecord(raw.sizes) ? raw.sizes : {}
  return {
    sizes: { importColumn: storedSize(sizes, 'importColumn'), drawer: storedSize(sizes, 'drawer') },
    importCollapsed: raw.importCollapsed === true,
  }
}

function storeLayout(layout: PanelLayout): void {
  writeStored(PANELS_KEY, JSON.stringify(layout))
}

export interface PrefsSlice {
  theme: ThemePref
  setTheme: (theme: ThemePref) => void
  /** system → light → dark → system. */
  cycleTheme: () => void
  /**
   * Panel sizes as the user left them; the layout clamps them to the current viewport when it
   * renders, so a size saved on a wide screen still fits a narrow one without being forgotten.
   */
  panelSizes: PanelSizes
  importCollapsed: boolean
  setPanelSize: (panel: PanelId, size: number) => void
  setImportCollapsed: (collapsed: boolean) => void
  toggleImportColumn: () => void
}

export const createPrefsSlice: StateCreator<AppState, [], [], PrefsSlice> = (set, get) => {
  const layout = parsePanelLayout(readStored(PANELS_KEY))
  const persistLayout = () =>
    storeLayout({ sizes: get().panelSizes, importCollapsed: get().importCollapsed })
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

    panelSizes: layout.sizes,
    importCollapsed: layout.importCollapsed,
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
  }
}
