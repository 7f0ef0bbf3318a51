/**
 * Per-group facts as flat typed arrays, built once per prepared conversation, for the questions
 * asked about old groups again and again: is the group out of the current call's context, is a
 * call of it still pending, which turn is it in. Answered from the group objects, each question
 * followed pointers (group → its message list → its calls → each call's results) to memory a long
 * session has long evicted from the caches; compaction in a replay of 5,000 calls asks them about
 * groups all over the history, and the same work cost about twice as much per question there as
 * in a replay of 1,000 (issue 14: cost per call flat). Five arrays of one number per group stay
 * cached.
 */
import { contextPlan } from '../accounting/plan.ts'
import type { Prepared } from './prepared.ts'

export interface GroupFacts {
  /** The group's last message (-1: it has none, the top-level system group). */
  readonly last: Int32Array
  /** The thread of all its messages (-1: none, or several threads). */
  readonly thread: Int32Array
  readonly turn: Int32Array
  /**
   * The message holding every call of the group the provider does not run (-1: there is none;
   * MIXED: several messages hold them, ask the calls one by one).
   */
  readonly callMessage: Int32Array
  /**
   * The latest, over those calls, of each one's first result message (NEVER: a call without a
   * result). A call is pending while its message is visible and its first result is not.
   */
  readonly answeredAt: Int32Array
}

export const MIXED = -2
export const NEVER = 0x7fffffff

const cache = new WeakMap<Prepared, GroupFacts>()

export function groupFactsOf(prepared: Prepared): GroupFacts {
  const hit = cache.get(prepared)
  if (hit) return hit
  const { groups, pairing } = prepared.grouping
  const { threadOf } = contextPlan(prepared)
  const n = groups.length
  const facts: GroupFacts = {
    last: new Int32Array(n),
    thread: new Int32Array(n),
    turn: new Int32Array(n),
    callMessage: new Int32Array(n),
    answeredAt: new Int32Array(n),
  }
  for (let g = 0; g < n; g++) {
    const group = groups[g]
    if (!group) continue
    const msgs = group.messages
    facts.last[g] = msgs.length > 0 ? (msgs[msgs.length - 1] as number) : -1
    let thread = msgs.length > 0 ? (threadOf[msgs[0] as number] as number) : -1
    for (const m of msgs) if (threadOf[m] !== thread) thread = -1
    facts.thread[g] = thread
    facts.turn[g] = group.turn
    let message = -1
    let answered = -1
    for (const c of group.calls) {
      const info = pairing.calls[c]
      if (!info || info.status === 'server') continue
      message = message === -1 || message === info.message ? info.message : MIXED
      let first = NEVER
      for (const r of info.results) first = Math.min(first, pairing.results[r]?.message ?? NEVER)
      answered = Math.max(answered, first)
    }
    facts.callMessage[g] = message
    facts.answeredAt[g] = answered
  }
  cache.set(prepared, facts)
  return facts
}
