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

export interface PrefsSlice {
  theme: ThemePref
  setTheme: (theme: ThemePref) => void
  /** system → light → dark → system. */
  cycleTheme: () => void
}

export const createPrefsSlice: StateCreator<AppState, [], [], PrefsSlice> = (set, get) => ({
  theme: storedTheme(),
  setTheme: (theme) => {
    writeStored(THEME_KEY, theme)
    set({ theme })
  },
  cycleTheme: () => {
    const next = THEMES[(THEMES.indexOf(get().theme) + 1) % THEMES.length] ?? 'system'
    get().setTheme(next)
  },
})
