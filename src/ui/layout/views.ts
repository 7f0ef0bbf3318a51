/** The workbench views' names and key sequences (the registry and the tabs share them). */
import type { MainView } from '../../store/index.ts'

export const VIEW_LABELS: Readonly<Record<MainView, string>> = {
  groups: 'Groups',
  overview: 'Overview',
  sweep: 'Sweep',
  compare: 'Compare',
}

/** The key sequence of each view (from the command registry, shown in the tab's title). */
export const VIEW_KEYS: Readonly<Record<MainView, string>> = {
  groups: 'g l',
  overview: 'g o',
  sweep: 'g s',
  compare: 'g c',
}
