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

/**
 * Hidden until the user shows them: Role mostly repeats Kind (tool_call → assistant), and its
 * width goes to Resource and Reason in the workbench's narrower list.
 */
export const DEFAULT_HIDDEN: ColumnVisibility = { role: false }

export function readVisibility(known: readonly string[]): ColumnVisibility {
  const stored = readStored(COLUMNS_KEY)
  return stored === null ? { ...DEFAULT_HIDDEN } : parseVisibility(stored, known)
}

export function writeVisibility(visibility: ColumnVisibility): void {
  writeStored(COLUMNS_KEY, JSON.stringify(visibility))
}

export const COLUMN_SIZES_KEY = 'table.columnSizes.v1'

/** Widths the user dragged columns to, in px (tanstack's `ColumnSizingState`). */
export type ColumnSizes = Record<string, number>

/** Narrowest and widest a dragged column may be stored as. */
export const COLUMN_MIN = 32
export const COLUMN_MAX = 1200

/** Parse stored widths: finite numbers of known columns, clamped; anything else is dropped. */
export function parseColumnSizes(raw: string | null, known: readonly string[]): ColumnSizes {
  if (!raw) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return {}
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const out: ColumnSizes = {}
  for (const [id, px] of Object.entries(value)) {
    if (known.includes(id) && typeof px === 'number' && Number.isFinite(px)) {
      out[id] = Math.min(COLUMN_MAX, Math.max(COLUMN_MIN, Math.round(px)))
    }
  }
  return out
}

export function readColumnSizes(known: readonly string[]): ColumnSizes {
  return parseColumnSizes(readStored(COLUMN_SIZES_KEY), known)
}

export function writeColumnSizes(sizes: ColumnSizes): void {
  writeStored(COLUMN_SIZES_KEY, JSON.stringify(sizes))
}
