import { useEffect } from 'react'
import { usePrefsActions, useTheme } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { applyTheme } from './theme.ts'

const LABELS = { system: 'System', light: 'Light', dark: 'Dark' } as const

/** Cycles system → light → dark; the choice is remembered (prefs slice → localStorage). */
export function ThemeToggle() {
  const theme = useTheme()
  const { cycleTheme } = usePrefsActions()
  useEffect(() => applyTheme(theme), [theme])
  return (
    <button
      type="button"
      className="button ghost"
      onClick={cycleTheme}
      data-testid={TID.themeToggle}
      data-theme-pref={theme}
      title="Switch colour theme (system → light → dark)"
    >
      Theme: {LABELS[theme]}
    </button>
  )
}
