/**
 * Every `data-testid` the app renders, in one place (TanStack devtools style): components and
 * Playwright page objects import the same constants, so a rename cannot silently break a test.
 */
export const TID = {
  app: 'app',
  privacyNote: 'privacy-note',
  themeToggle: 'theme-toggle',
  progress: 'progress',
  dropOverlay: 'drop-overlay',

  samplePicker: 'sample-picker',
  pasteBox: 'paste-box',
  loadButton: 'load-button',
  fileInput: 'file-input',
  sourceLine: 'source-line',
  otherFiles: 'other-files',
  /** One file of a multi-file pick (`data-file` names it; aria-pressed marks the open one). */
  fileChoice: 'file-choice',
  /** The conversations of a multi-item file (tau-bench, aider sessions, sub-agents, captures). */
  itemPicker: 'item-picker',
  itemSearch: 'item-search',
  /** One item (`data-index` 0-based; aria-selected marks the loaded one). */
  itemOption: 'item-option',
  loadError: 'load-error',

  detectedFormat: 'detected-format',
  formatConfidence: 'format-confidence',
  formatEvidence: 'format-evidence',
  formatOverride: 'format-override',
  metaNotes: 'meta-notes',

  counts: 'counts',
  /** Suffix with the count key: `count-messages`, `count-turns`, … (see `countTestId`). */
  countPrefix: 'count-',
  groupsByKind: 'groups-by-kind',

  totalTokens: 'total-tokens',
  estimateNote: 'estimate-note',
  tokenizerSelect: 'tokenizer-select',
  categoryTable: 'category-table',
  approximateList: 'approximate-list',
  calibration: 'calibration',
  reportedUsage: 'reported-usage',

  compaction: 'compaction',
  presetPicker: 'preset-picker',
  runStatus: 'run-status',
  budgetHeadline: 'budget-headline',
  budgetUsable: 'budget-usable',
  budgetNoChange: 'budget-no-change',
  invariants: 'invariants',
  changeCount: 'change-count',
  budgetBarBefore: 'budget-bar-before',
  budgetBarAfter: 'budget-bar-after',
  /** A used category inside a budget bar (`data-category` says which). */
  budgetSegment: 'budget-segment',
  budgetFree: 'budget-free',
  budgetBuffer: 'budget-buffer',
  /** Reserved output: set aside, never used, drawn hatched. */
  budgetReserved: 'budget-reserved',
  budgetTable: 'budget-table',

  warnings: 'warnings',
  warningCount: 'warning-count',
  preview: 'preview',

  // grouped table (features/table)
  groupTable: 'group-table',
  groupFilter: 'group-filter',
  groupRow: 'group-row',
  groupStatus: 'group-status',

  // Replay timeline (src/ui/features/timeline)
  timeline: 'timeline',
  timelineEmpty: 'timeline-empty',
  timelineChart: 'timeline-chart',
  /** A diamond on the compacted line where a strategy fired (`data-call` says which call). */
  timelineFired: 'timeline-fired',
  timelineReported: 'timeline-reported',
  timelineFlagged: 'timeline-flagged',
  timelineNow: 'timeline-now',
  timelineStep: 'timeline-step',
  reconciliation: 'reconciliation',
  budgetCost: 'budget-cost',
  compareCost: 'compare-cost',
  sweepWithCost: 'sweep-with-cost',
  timelineMode: 'timeline-mode',
  timelineRewrite: 'timeline-rewrite',
  priceForm: 'price-form',
  reconciliationSource: 'reconciliation-source',
  reconciliationFlagged: 'reconciliation-flagged',
  reconciliationIgnored: 'reconciliation-ignored',
  reconciliationPrefix: 'reconciliation-prefix',
  reconciliationScale: 'reconciliation-scale',
  timelineUsable: 'timeline-usable',
  timelineTooltip: 'timeline-tooltip',
  /** Shown while the replay that follows a run is computed (with calls done / total). */
  timelineReplaying: 'timeline-replaying',

  // Context strip (features/strip)
  contextStrip: 'context-strip',
  stripBefore: 'strip-before',
  stripAfter: 'strip-after',
  /** One segment (`<g>`) of a band: `data-group`, `data-kind`, `data-status`, `data-tokens`. */
  stripSegment: 'strip-segment',
  stripUsable: 'strip-usable',
  stripReserved: 'strip-reserved',

  // @detail (features/detail)
  /** The drawer (`data-group` = the group shown, `data-state` = loading / ready / error). */
  detailDrawer: 'detail-drawer',
  detailClose: 'detail-close',
  /** One tab (`data-tab` = pretty / raw / diff / why / tokens). */
  detailTab: 'detail-tab',
  detailPanel: 'detail-panel',
  detailStatus: 'detail-status',
  /** Tokens before → after (`data-before`, `data-after`). */
  detailTokens: 'detail-tokens',
  detailError: 'detail-error',
  /** One part's text (`data-kind`, `data-replaced`). */
  detailPart: 'detail-part',
  /** "from text" on a tool call/result read from a text-action agent's prose. */
  derivedBadge: 'derived-badge',
  detailMore: 'detail-more',
  detailRaw: 'detail-raw',
  /** One part in the Diff tab (`data-diff` = unchanged / replaced / removed / added). */
  detailDiffPart: 'detail-diff-part',
  /** One decision in the Why tab (`data-kind`, `data-strategy`, `data-reason`). */
  detailDecision: 'detail-decision',
  /** One row in the Tokens tab (`data-before`, `data-after`). */
  detailTokenRow: 'detail-token-row',
  /** The Why tab's removed-then-used warning (`data-later`, `data-calls`, `data-tokens`). */
  detailUsedLater: 'detail-used-later',
  /** One string of its evidence. */
  detailUsedLaterEvidence: 'detail-used-later-evidence',
  /** Compaction facts: groups removed then used later (`data-value`, `data-tokens`). */
  riskUsedLater: 'risk-used-later',
  /** A compare side's removed-then-used figure (`data-value`, `data-tokens`). */
  compareUsedLater: 'compare-used-later',
  // @config-editor (features/config)
  configEditor: 'config-editor',
  /** Beside the preset picker while the run uses an edited config. */
  configEdited: 'config-edited',
  configReset: 'config-reset',
  configIssues: 'config-issues',
  /** An inline error under a field; `data-path` is the config path it belongs to. */
  configFieldError: 'config-field-error',
  /** A form input; `data-path` is the config path it edits (`window.contextTokens`). */
  configField: 'config-field',
  configStep: 'config-step',
  configStepUp: 'config-step-up',
  configStepDown: 'config-step-down',
  configStepRemove: 'config-step-remove',
  configStepEnabled: 'config-step-enabled',
  configStepOutcome: 'config-step-outcome',
  configAddStrategy: 'config-add-strategy',
  configAddStep: 'config-add-step',
  configJson: 'config-json',
  configJsonError: 'config-json-error',
  configDelta: 'config-delta',
  // @sweep-compare (features/sweep, features/compare)
  sweep: 'sweep',
  sweepParam: 'sweep-param',
  sweepFrom: 'sweep-from',
  sweepTo: 'sweep-to',
  sweepSteps: 'sweep-steps',
  sweepRun: 'sweep-run',
  sweepCancel: 'sweep-cancel',
  sweepProgress: 'sweep-progress',
  sweepError: 'sweep-error',
  /** The chart figure: `data-points` = points computed, `data-path` = the swept parameter. */
  sweepChart: 'sweep-chart',
  /** One point (`data-value`, `data-after`, `data-ok`), in the chart and in the points table. */
  sweepPoint: 'sweep-point',
  sweepApply: 'sweep-apply',
  compare: 'compare',
  compareA: 'compare-a',
  compareB: 'compare-b',
  compareRun: 'compare-run',
  compareError: 'compare-error',
  /** One side's summary (`data-side` a/b, `data-after`, `data-changes`). */
  compareSide: 'compare-side',
  /** The differing-groups table (`data-count` = every differing group). */
  compareTable: 'compare-table',
  /** One differing group (`data-group`; `aria-selected` when it is the selection). */
  compareRow: 'compare-row',
  // @commands (ui/commands, URL state, layout)
  commandPalette: 'command-palette',
  paletteInput: 'palette-input',
  /** One command in the palette (`data-command` = its id, `data-enabled`). */
  paletteItem: 'palette-item',
  shortcutsHelp: 'shortcuts-help',
  /** One command in the ? help (`data-command` = its id). */
  shortcutRow: 'shortcut-row',
  importSplitter: 'import-splitter',
  drawerSplitter: 'drawer-splitter',
  importToggle: 'import-toggle',
  // @table-links (table grammar, expandable rows, brush, invariants panel)
  tableQuery: 'table-query',
  /** "n of m groups" (`data-shown` = rows after every filter). */
  tableCount: 'table-count',
  tableQueryError: 'table-query-error',
  tableQueryHelp: 'table-query-help',
  /** The column menu and its checkboxes (`data-column` says which). */
  tableColumns: 'table-columns',
  tableColumnToggle: 'table-column-toggle',
  /** "brushed: messages a–b ×": the timeline brush filtering the table. */
  tableBrush: 'table-brush',
  tableBrushClear: 'table-brush-clear',
  rowExpand: 'row-expand',
  /** A message part (or the loading/error note) under an expanded row: `data-group`. */
  groupSubRow: 'group-sub-row',
  timelineBrush: 'timeline-brush',
  /** A vertical marker where the source system compacted (`data-message`). */
  timelineUpstream: 'timeline-upstream',
  /** A horizontal line at a step's trigger level (`data-tokens`, `data-step`). */
  timelineTrigger: 'timeline-trigger',
  stripSelected: 'strip-selected',
  stripTrigger: 'strip-trigger',
  stripUpstream: 'strip-upstream',
  stripZoomIn: 'strip-zoom-in',
  stripZoomOut: 'strip-zoom-out',
  stripZoomReset: 'strip-zoom-reset',
  stripPan: 'strip-pan',
  invariantsPanel: 'invariants-panel',
  invariantCheck: 'invariant-check',
  invariantPrev: 'invariant-prev',
  invariantNext: 'invariant-next',
  invariantPosition: 'invariant-position',
  // @export
  exportOpen: 'export-open',
  exportDialog: 'export-dialog',
  exportTarget: 'export-target',
  /** The highlighted file (`data-file`, `data-language`, `data-state` = loading / ready / error). */
  exportPreview: 'export-preview',
  /** What the target system will do with the file, in one sentence (config translations). */
  exportSummary: 'export-summary',
  /** The decisions CSV's column checkboxes (`data-column` on each). */
  exportCsvColumns: 'export-csv-columns',
  exportCsvColumn: 'export-csv-column',
  exportWarnings: 'export-warnings',
  /** One lossy-export warning (`data-path` = where in our config). */
  exportWarning: 'export-warning',
  exportNotes: 'export-notes',
  exportError: 'export-error',
  exportCopy: 'export-copy',
  exportDownload: 'export-download',
  /** "copied" / "copy failed" after Copy (`data-status`). */
  exportStatus: 'export-status',
  exportClose: 'export-close',
  importOpen: 'import-config-open',
  importDialog: 'import-config-dialog',
  importFile: 'import-config-file',
  importText: 'import-config-text',
  importSubmit: 'import-config-submit',
  /** One validation problem (`data-path`). */
  importIssue: 'import-config-issue',
  importClose: 'import-config-close',
  shareCopy: 'share-copy',
  /** After "Copy share link": `data-status` copied / failed, `data-url` = the link. */
  shareStatus: 'share-status',

  // The workbench shell (src/ui/layout)
  skipLink: 'skip-link',
  sidebar: 'sidebar',
  /** One view tab in the header (`data-view` = groups / overview / sweep / compare). */
  viewTab: 'view-tab',
  /** A view's body (`data-view`); hidden ones stay mounted so their state survives a switch. */
  viewPanel: 'view-panel',
  /** The right-hand pane: the detail drawer when a row is open, a hint otherwise. */
  detailPane: 'detail-pane',
  budgetExpand: 'budget-expand',
  timelineToggle: 'timeline-toggle',
  timelineSplitter: 'timeline-splitter',
  helpButton: 'help-button',
  densityToggle: 'density-toggle',

  // Find in the list (features/table/FindBar)
  findBar: 'find-bar',
  findInput: 'find-input',
  /** `data-matches`, `data-current` (1-based; 0 when none). */
  findCount: 'find-count',
  findNext: 'find-next',
  findPrev: 'find-prev',
  findClose: 'find-close',
  /** A stubbed/trimmed sub-row's toggle between the replacement and the original. */
  subRowOriginal: 'sub-row-original',
  /** The reason badge of an excluded/changed row (the strategy that decided it). */
  reasonBadge: 'reason-badge',
  columnResizer: 'column-resizer',

  // Recent files kept on this device (features/import/RecentFiles, store/recent-files.ts)
  recentFiles: 'recent-files',
  /** One entry (`data-name`, `data-bytes`). */
  recentFile: 'recent-file',
  recentOpen: 'recent-open',
  recentForget: 'recent-forget',
  /** What is kept and its bound, and why a transcript was not kept. */
  recentNote: 'recent-note',
} as const

export type CountKey =
  | 'messages'
  | 'turns'
  | 'groups'
  | 'tool-calls'
  | 'tool-results'
  | 'orphans'
  | 'pending'
  | 'paired-by-position'
  | 'markers'

export function countTestId(key: CountKey): string {
  return TID.countPrefix + key
}
