/**
 * Every command of the app, in one list (excalidraw's action registry): the key handler, the
 * command palette and the `?` help are all generated from it, so a shortcut cannot exist in one
 * place and be missing from another.
 */
import {
  DETAIL_TABS,
  MAIN_VIEWS,
  PRESET_IDS,
  type AppState,
  type DetailTab,
  type MainView,
} from '../../store/index.ts'
import { TID } from '../testids.ts'
import { openExportDialog } from '../features/export/exportDialogs.ts'
import { goToMatch } from '../features/table/find.ts'
import { VIEW_KEYS, VIEW_LABELS } from '../layout/views.ts'
import { clickTestId, focusDetail, focusFirstIn, focusList } from './focus.ts'
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

/** How long a focus command waits for its target to be mounted (a view or table coming in). */
const FOCUS_WAIT_MS = 1000

/**
 * After React drew the change (a view switch, an opened pane): then move focus. `focus` says
 * whether its target was there; if not, it is tried again each frame for a while. Two frames
 * were not always enough: the table renders its summary in a deferred pass, which on a busy
 * machine lands later (the "f focuses the table filter" flake, issue 14).
 */
const afterPaint = (focus: () => boolean) => {
  const until = performance.now() + FOCUS_WAIT_MS
  const attempt = () => {
    if (!focus() && performance.now() < until) requestAnimationFrame(attempt)
  }
  requestAnimationFrame(() => requestAnimationFrame(attempt))
}

const viewCommands: Command[] = MAIN_VIEWS.map((view: MainView) => ({
  id: `view.${view}`,
  title: `Show the ${VIEW_LABELS[view]} view`,
  group: 'View',
  keys: [VIEW_KEYS[view]],
  when: (s) => s.report !== null,
  run: ({ state }) => state.setMainView(view),
}))

/** Commands that act on the list need the groups view on screen first. */
function showGroups(state: AppState): void {
  if (state.mainView !== 'groups') state.setMainView('groups')
}

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
    title: 'Show the selected row in the detail pane and move focus into it',
    group: 'Detail',
    keys: ['Enter'],
    when: (s) => s.selectedGroup !== null,
    run: ({ state }) => {
      showGroups(state)
      state.openDrawer()
      afterPaint(focusDetail)
    },
  },
  {
    id: 'detail.close',
    title: 'Close the detail (Esc inside the detail goes back to the list first)',
    group: 'Detail',
    keys: ['Escape'],
    when: (s) => s.drawerOpen,
    run: ({ state }) => {
      state.closeDrawer()
      focusList()
    },
  },
  {
    id: 'list.focus',
    title: 'Focus the group list',
    group: 'Rows',
    keys: ['l'],
    when: hasRows,
    run: ({ state }) => {
      showGroups(state)
      afterPaint(focusList)
    },
  },
  ...tabCommands,
  {
    id: 'find.open',
    title: 'Find in the list (highlights matches; Enter / Shift+Enter step through them)',
    group: 'Filter',
    keys: ['/', 'Mod+f'],
    when: hasRun,
    run: ({ state, ui }) => {
      showGroups(state)
      afterPaint(() => ui.focus(TID.findInput))
    },
  },
  {
    id: 'find.next',
    title: 'Next find match',
    group: 'Filter',
    keys: ['n'],
    when: (s) => s.findMatches.length > 0,
    run: ({ state }) => goToMatch(state, 1),
  },
  {
    id: 'find.previous',
    title: 'Previous find match',
    group: 'Filter',
    keys: ['N'],
    when: (s) => s.findMatches.length > 0,
    run: ({ state }) => goToMatch(state, -1),
  },
  {
    id: 'filter.focus',
    title: 'Focus the table filter (narrows the list)',
    group: 'Filter',
    keys: ['f'],
    when: hasRun,
    run: ({ state, ui }) => {
      showGroups(state)
      afterPaint(() => ui.focus(TID.tableQuery))
    },
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
    id: 'load.file',
    title: 'Open a file…',
    group: 'Load',
    keys: ['Mod+o'],
    // Ctrl/⌘+O types nothing: it opens the chooser from a field too (and not the browser's).
    inFields: true,
    run: () => void clickTestId(TID.fileInput),
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
    id: 'config.focus',
    title: "Focus the config editor (the first field of the sidebar's config)",
    group: 'Config',
    keys: ['c'],
    when: (s) => s.report !== null,
    run: ({ state }) => {
      if (state.importCollapsed) state.setImportCollapsed(false)
      afterPaint(() => focusFirstIn(TID.configEditor))
    },
  },
  {
    id: 'view.import',
    title: 'Collapse or expand the load and config sidebar',
    group: 'View',
    keys: ['b'],
    run: ({ state }) => state.toggleImportColumn(),
  },
  ...viewCommands,
  {
    id: 'view.budget',
    title: 'Expand or fold the budget table',
    group: 'View',
    keys: ['x'],
    when: (s) => s.summary !== null,
    run: ({ state }) => state.toggleBudgetExpanded(),
  },
  {
    id: 'view.timeline',
    title: 'Fold or show the timeline',
    group: 'View',
    keys: ['T'],
    run: ({ state }) => state.toggleTimeline(),
  },
  {
    id: 'view.density',
    title: 'Switch row density (auto → compact → comfortable)',
    group: 'View',
    keys: ['D'],
    run: ({ state }) => state.cycleDensity(),
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
