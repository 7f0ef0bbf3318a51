/**
 * The decisions CSV's columns: dependency-free, so the Export dialog's column picker (through the
 * worker protocol) and the CLI's `--csv-columns` offer the very list the report writer knows.
 */

/** Every column the decisions CSV can have, in their default order. */
export const CSV_COLUMNS = [
  'index',
  'kind',
  'strategy',
  'step',
  'round',
  'groupId',
  'reason',
  'tokensBefore',
  'tokensAfter',
  'saved',
  'detail',
  'fixed',
] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

/** The columns written when none are chosen. */
export const DEFAULT_CSV_COLUMNS: readonly CsvColumn[] = [
  'index',
  'kind',
  'strategy',
  'step',
  'groupId',
  'reason',
  'tokensBefore',
  'tokensAfter',
  'saved',
  'detail',
]

export function isCsvColumn(value: string): value is CsvColumn {
  return (CSV_COLUMNS as readonly string[]).includes(value)
}
