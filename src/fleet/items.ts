import type { FormatId } from '../engine/model.ts'
import { importTranscriptBytes, type ImportOutcome } from '../formats/index.ts'

/**
 * The conversations one file holds — the one place a file is expanded into items. A multi-item
 * file (tau-bench results, aider sessions, Claude Code main + sub-agent runs, captures: see
 * src/formats/items.ts) gives one item per conversation, each imported the way
 * `compact --item N` imports it; any other file is one item, imported whole (as `compact` does
 * without `--item`).
 */
export interface FleetItem {
  /** 0-based position in the file (0 for a file holding one conversation). */
  readonly item: number
  /** The item's name from the file's listing; null for a whole file. */
  readonly itemName: string | null
  /** Import this item (`--item N`); false: the whole file. */
  readonly pick: boolean
  readonly bytes: Uint8Array
  readonly format?: FormatId
  /**
   * A whole file's import, already done by the listing (which parses the whole file when it is
   * not a multi-item one): the chain uses it instead of parsing the same bytes a second time.
   */
  readonly imported?: ImportOutcome
}

/**
 * List the file's items (the listing parses each item once to size it). A file that does not
 * parse is one item: its import then fails with the reason, as `compact` would.
 */
export function itemsOf(
  bytes: Uint8Array,
  name: string,
  strictUtf8?: (bytes: Uint8Array) => string,
): readonly FleetItem[] {
  const listed = importTranscriptBytes(bytes, { fileName: name, listItems: true }, strictUtf8)
  const items = listed.result.ok ? listed.items?.items : undefined
  if (!items || items.length === 0)
    return [{ item: 0, itemName: null, pick: false, bytes, imported: listed }]
  return items.map((i) => ({ item: i.index, itemName: i.name, pick: true, bytes }))
}
