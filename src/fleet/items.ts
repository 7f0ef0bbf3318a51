import type { FormatId } from '../engine/model.ts'

/**
 * The conversations one file holds. Every place that expands a file into conversations goes
 * through here, so when the formats layer can list the items of a multi-item file (and import
 * item N), this is the one function to change: today a file is one item, imported whole.
 */
export interface FleetItem {
  /** 0-based position in the file. */
  readonly item: number
  readonly bytes: Uint8Array
  readonly format?: FormatId
}

export function itemsOf(bytes: Uint8Array, _name: string): readonly FleetItem[] {
  return [{ item: 0, bytes }]
}
