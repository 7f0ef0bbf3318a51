/**
 * The grouping of a loaded conversation, built once: the load's report, the count's report, the
 * group facts and every preparation (one per counter) share it, where each built its own before
 * (issue 14: three passes over a 10 MB transcript on the way to the first budget).
 */
import { buildGroups, type Grouping } from '../engine/groups.ts'
import type { Conversation } from '../engine/model.ts'

const groupings = new WeakMap<Conversation, Grouping>()

/** The conversation's grouping; depends on the conversation only (not counter or config). */
export function groupingOf(conversation: Conversation): Grouping {
  let grouping = groupings.get(conversation)
  if (!grouping) {
    grouping = buildGroups(conversation)
    groupings.set(conversation, grouping)
  }
  return grouping
}
