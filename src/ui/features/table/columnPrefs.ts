/** Which table columns are hidden, remembered in localStorage (versioned key, tolerant reader). */
import { readStored, writeStored } from '../../../store/persist.ts'

export const COLUMNS_KEY = 'table.columns.v1'

/** Visibility as tanstack wants it: `{ columnId: false }` for every hidden column. */
export type ColumnVisibility = Record<string, boolean>

/**
 * Parse a stored value: only `{ [id]: boolean }` entries for columns that exist survive, so a
 * renamed column or a hand-edited value never hides something by accident or throws.
 */
export function parseVisibility(raw: string | null, known: readonly string[]): ColumnVisibility {
  if (!raw) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return {}
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const out: ColumnVisibility = {}
  for (const [id, visible] of Object.entries(value)) {
    if (known.includes(id) && typeof visible === 'boolean') out[id] = visible
  }
  return out
}

export function readVisibility(known: readonly string[]): ColumnVisibility {
  return parseVisibility(readStored(COLUMNS_KEY), known)
}

export function writeVisibility(visibility: ColumnVisibility): void {
  writeStored(COLUMNS_KEY, JSON.stringify(visibility))
}
