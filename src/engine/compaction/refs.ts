import type { PartRef } from '../pairing.ts'
import { flatPart, type PartIndex, type Prepared } from './prepared.ts'

/**
 * One address object per part of a prepared conversation, made on first use. A re-plan walks
 * every part and most of the addresses end up in decisions (a skip's or a change's `target`),
 * which outlive the round: fresh objects there were thousands of young-generation survivors per
 * round for the scavenger to copy. Addresses are read-only values, so sharing them is safe.
 */
export type RefTable = (PartRef | undefined)[]

const refTables = new WeakMap<Prepared, RefTable>()

/** The shared address table of a prepared conversation (indexed by flat part number). */
export function refTableOf(prepared: Prepared, index: PartIndex): RefTable {
  let table = refTables.get(prepared)
  if (!table) {
    table = new Array<PartRef | undefined>(index.offset[index.offset.length - 1] as number)
    refTables.set(prepared, table)
  }
  return table
}

/** The shared `{message, part}` of a part (a fresh one for an address outside the conversation). */
export function refIn(table: RefTable, index: PartIndex, message: number, part: number): PartRef {
  const flat = flatPart(index, message, part)
  if (flat < 0) return { message, part }
  let ref = table[flat]
  if (!ref) {
    ref = { message, part }
    table[flat] = ref
  }
  return ref
}
