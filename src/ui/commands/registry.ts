/**
 * Every command of the app, in one list (excalidraw's action registry): the key handler, the
 * command palette and the `?` help are all generated from it, so a shortcut cannot exist in one
 * place and be missing from another.
 */
import { DETAIL_TABS, PRESET_IDS, type AppState, type DetailTab } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { openExportDialog } from '../features/export/exportDialogs.ts'
import { cycle, edgeRow, stepRow } from './navigation.ts'

export type CommandGroup = 'Rows' | 'Detail' | 'Filter' | 'Config' | 'Load' | 'View' | 'Help'
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  'Rows',
  'Detail',
  'Filter',
  'Config',
  'Load',
  'View',
  'Help',
]

/** What a command may do besides changing the store: the layer's own dialogs and focus. */
export interface CommandUi {
  openPalette(): void
  openHelp(): void
  /** Focus (and select) the element with this test id; false when it is not on the page. */
  focus(testId: string): boolean
}

export interface CommandContext {
  /** The store as it is when the command runs (state and actions). */
  readonly state: AppState
  readonly ui: CommandUi
}

export interface Command {
  readonly id: string
  readonly title: string
  readonly group: CommandGroup
  /** Bindings (see keys.ts); empty for palette-only commands. */
  readonly keys: readonly string[]
  /** Whether the command can run now; absent means always. Disabled commands ignore their keys. */
  readonly when?: (state: AppState) => boolean
  readonly run: (ctx: CommandContext) => void
  /**
   * Fires even while typing in a text field. Only for modified chords that type nothing
   * (Ctrl+K), so plain letters always reach the field.
   */
  readonly inFields?: boolean
}

const hasRun = (s: AppState) => s.summary !== null

/** The rows in display order: the table's published list, or the run's order before it has one. */
export function visibleRows(s: AppState): readonly string[] {
  return s.visibleGroupIds ?? s.summary?.groups.ids ?? []
}

const hasRows = (s: AppState) => visibleRows(s).length > 0

function select(s: AppState, id: string | null): void {
  if (id !== null && id !== s.selectedGroup) s.selectGroup(id)
}

const TAB_TITLES: Record<DetailTab, string> = {
  pretty: 'Pretty',
  raw: 'Raw JSON',
  diff: 'Diff',
  why: 'Why',
  tokens: 'Tokens',
}

const tabCommands: Command[] = DETAIL_TABS.map((tab, i) => ({
  id: `detail.tab.${tab}`,
  title: `Detail tab: ${TAB_TITLES[tab]}`,
  group: 'Detail',
  keys: [String(i + 1)],
  when: (s) => s.selectedGroup !== null,
  run: ({ state }) => {
    state.setDetailTab(tab)
    state.openDrawer()
  },
}))

/** The sample a first visit opens (same as the samples slice's default). */
const DEFAULT_SAMPLE = 'coding-session'

export const COMMANDS: readonly Command[] = [
  {
    id: 'row.next',
    title: 'Next row',
    group: 'Rows',
    keys: ['j', 'ArrowDown'],
    when: hasRows,
    run: ({ state }) => select(state, stepRow(visibleRows(state), state.selectedGroup, 1)),
  },
  {
    id: 'row.previous',
    title: 'Previous row',
    group: 'Rows',
    keys: ['k', 'ArrowUp'],
    when: hasRows,
    run: ({ state }) => select(state, stepRow(visibleRows(state), state.selectedGroup, -1)),
  },
  {
    id: 'row.first',
    title: 'First row',
    group: 'Rows',
    keys: ['g g', 'Home'],
    when: hasRows,
    run: ({ state }) => select(state, edgeRow(visibleRows(state), 'first')),
  },
  {
    id: 'row.last',
    title: 'Last row',
    group: 'Rows',
    keys: ['G', 'End'],
    when: hasRows,
    run: ({ state }) => select(state, edgeRow(visibleRows(state), 'last')),
  },
  {
    id: 'detail.open',
    title: 'Open the selected row in the detail drawer',
    group: 'Detail',
    keys: ['Enter'],
    when: (s) => s.selectedGroup !== null,
    run: ({ state }) => state.openDrawer(),
  },
  {
    id: 'detail.close',
    title: 'Close the detail drawer',
    group: 'Detail',
    keys: ['Escape'],
    when: (s) => s.drawerOpen,
    run: ({ state }) => state.closeDrawer(),
  },
  ...tabCommands,
  {
    id: 'filter.focus',
    title: 'Focus the table filter',
    group: 'Filter',
    keys: ['/'],
    when: hasRun,
    run: ({ ui }) => void ui.focus(TID.tableQuery),
  },
  {
    id: 'preset.next',
    title: 'Next preset',
    group: 'Config',
    keys: [']'],
    run: ({ state }) => void state.runPreset(cycle(PRESET_IDS, state.selectedPreset, 1)),
  },
  {
    id: 'preset.previous',
    title: 'Previous preset',
    group: 'Config',
    keys: ['['],
    run: ({ state }) => void state.runPreset(cycle(PRESET_IDS, state.selectedPreset, -1)),
  },
  {
    id: 'load.sample',
    title: 'Load the built-in sample',
    group: 'Load',
    keys: [],
    when: (s) => s.samples.length > 0 && s.status !== 'loading',
    run: ({ state }) => {
      const sample = state.samples.find((x) => x.id === DEFAULT_SAMPLE) ?? state.samples[0]
      if (sample) void state.loadSample(sample.id)
    },
  },
  {
    id: 'load.paste',
    title: 'Focus the paste box',
    group: 'Load',
    keys: ['p'],
    run: ({ state, ui }) => {
      if (!state.importCollapsed) {
        ui.focus(TID.pasteBox)
        return
      }
      // The box is not in the page while the column is collapsed: show it, then focus.
      state.setImportCollapsed(false)
      requestAnimationFrame(() => ui.focus(TID.pasteBox))
    },
  },
  {
    id: 'view.import',
    title: 'Collapse or expand the import column',
    group: 'View',
    keys: ['b'],
    run: ({ state }) => state.toggleImportColumn(),
  },
  {
    id: 'config.export',
    title: 'Export… (config for a target system, compacted transcript, reports)',
    group: 'Config',
    keys: ['e'],
    // The dialog lives in the compaction section, which is on the page once a transcript is.
    when: (s) => s.report !== null,
    run: () => openExportDialog(),
  },
  {
    id: 'view.theme',
    title: 'Switch colour theme (system → light → dark)',
    group: 'View',
    keys: ['t'],
    run: ({ state }) => state.cycleTheme(),
  },
  {
    id: 'help.palette',
    title: 'Command palette',
    group: 'Help',
    keys: ['Mod+k', 'Ctrl+Shift+p'],
    inFields: true,
    run: ({ ui }) => ui.openPalette(),
  },
  {
    id: 'help.shortcuts',
    title: 'Keyboard shortcuts',
    group: 'Help',
    keys: ['?'],
    run: ({ ui }) => ui.openHelp(),
  },
]

const BY_ID: ReadonlyMap<string, Command> = new Map(COMMANDS.map((c) => [c.id, c]))

export function commandById(id: string): Command | undefined {
  return BY_ID.get(id)
}

export function isEnabled(command: Command, state: AppState): boolean {
  return command.when ? command.when(state) : true
}
