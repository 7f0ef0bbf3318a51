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

  warnings: 'warnings',
  warningCount: 'warning-count',
  preview: 'preview',
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
