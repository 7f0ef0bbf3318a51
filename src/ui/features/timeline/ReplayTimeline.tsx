/** Placeholder for the replay timeline (context tokens per model call); rendered after the compaction section once implemented. */
export function ReplayTimeline() {
  return null
}
