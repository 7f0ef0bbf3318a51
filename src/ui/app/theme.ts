import type { ThemePref } from '../../store/index.ts'

/** `system` removes the pin so CSS `color-scheme: light dark` follows prefers-color-scheme. */
export function applyTheme(theme: ThemePref): void {
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
}
