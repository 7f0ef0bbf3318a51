/**
 * A run reply joined with the loaded conversation's group facts: the reply leaves out what
 * depends on the conversation only (sent once, with the load), so a field edit's reply is a
 * fraction of its old size (issue 14). The facts' arrays are the same objects from run to run,
 * so views that key on them (the table's rows) see at once that they did not change.
 */
import type { GroupFacts, RunSummary, RunView } from '../worker/protocol.ts'

const NO_FACTS: GroupFacts = {
  roles: [],
  tools: [],
  resources: [],
  turns: new Int32Array(0),
  firstMessage: new Int32Array(0),
  messageCounts: new Int32Array(0),
}

/** `reply` with `facts` joined to its groups (no facts: a load that brought none, empty). */
export function joinFacts(reply: RunSummary, facts: GroupFacts | null): RunView {
  return { ...reply, groups: { ...reply.groups, ...(facts ?? NO_FACTS) } }
}
