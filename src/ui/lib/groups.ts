/** Lookups over the per-group arrays of a run summary, shared by strip, timeline, table. */

/**
 * The group holding message `index`: groups are in conversation order, so a binary search over
 * their first messages finds it. Null before the first group's message or past the last one.
 */
export function groupAtMessage(
  firstMessage: Int32Array,
  messageCounts: Int32Array,
  index: number,
): number | null {
  let lo = 0
  let hi = firstMessage.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const first = firstMessage[mid] ?? -1
    if (first <= index) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  if (found < 0) return null
  const first = firstMessage[found] ?? -1
  if (first < 0) return null
  return index < first + (messageCounts[found] ?? 0) ? found : null
}
