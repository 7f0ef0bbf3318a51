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
  timelineUsable: 'timeline-usable',
  timelineTooltip: 'timeline-tooltip',

  // Context strip (features/strip)
  contextStrip: 'context-strip',
  stripBefore: 'strip-before',
  stripAfter: 'strip-after',
  /** One segment (`<g>`) of a band: `data-group`, `data-kind`, `data-status`, `data-tokens`. */
  stripSegment: 'strip-segment',
  stripUsable: 'strip-usable',
  stripReserved: 'strip-reserved',

  // @detail (features/detail)
  // @config-editor (features/config)
  // @sweep-compare (features/sweep, features/compare)
  // @commands (ui/commands, URL state, layout)
  // @table-links (table grammar, expandable rows, brush, invariants panel)
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
