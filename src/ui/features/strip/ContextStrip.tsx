/** Placeholder for the context strip (before/after bands of groups); rendered after the compaction section once implemented. */
export function ContextStrip() {
  return null
}
