/** Placeholder for the grouped table of groups; rendered after the compaction section once implemented. */
export function GroupTable() {
  return null
}
