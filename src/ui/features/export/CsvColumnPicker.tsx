import { CSV_COLUMNS, type CsvColumn } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

interface CsvColumnPickerProps {
  /** The chosen columns, in the order the CSV writes them. */
  readonly value: readonly CsvColumn[]
  readonly onChange: (next: readonly CsvColumn[]) => void
}

/**
 * The decisions CSV's columns (the CLI's `--csv-columns`): one checkbox per column, written in the
 * report's own column order. At least one stays checked, so the file always has a column.
 */
export function CsvColumnPicker({ value, onChange }: CsvColumnPickerProps) {
  const chosen = new Set(value)
  const toggle = (column: CsvColumn) => {
    const next = new Set(chosen)
    if (next.has(column)) next.delete(column)
    else next.add(column)
    if (next.size === 0) return
    onChange(CSV_COLUMNS.filter((c) => next.has(c)))
  }
  return (
    <fieldset className="xp-columns" data-testid={TID.exportCsvColumns}>
      <legend>CSV columns</legend>
      {CSV_COLUMNS.map((column) => (
        <label key={column} className="xp-column">
          <input
            type="checkbox"
            checked={chosen.has(column)}
            disabled={chosen.has(column) && chosen.size === 1}
            onChange={() => toggle(column)}
            data-testid={TID.exportCsvColumn}
            data-column={column}
          />
          {column}
        </label>
      ))}
    </fieldset>
  )
}
