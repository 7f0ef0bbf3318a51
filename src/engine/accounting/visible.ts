import type { Prepared } from '../compaction/prepared.ts'
import { partIndexOf } from '../compaction/prepared.ts'
import { contextPlan, type ContextPlan } from './plan.ts'

/** What one model call saw of the log, by our own count, before any compaction of ours. */
export interface VisibleContext {
  /** Message index of the call. */
  readonly index: number
  readonly thread: number
  /** Our count of what the log shows the call received (rules applied; no hidden prefix). */
  readonly tokens: number
  /** An upstream compaction restarted this call's context since the previous call of its thread. */
  readonly upstreamCompaction: boolean
}

/**
 * The visible context of every model call in one linear pass: per-thread running sums of message
 * prices that restart at upstream compactions and lose reasoning parts when the provider's rule
 * says they leave the context. Tool definitions, framing and the logged system prompt are in every
 * call's context (a sub-agent's own system prompt is not in the log: it is part of its hidden
 * prefix).
 */
export function visibleContexts(
  prepared: Prepared,
  plan: ContextPlan = contextPlan(prepared),
): VisibleContext[] {
  const { messages } = prepared.conversation
  const index = partIndexOf(prepared)
  const flatPrice = (flat: number): number => {
    const m = plan.messageOfPart[flat] as number
    return prepared.partTokens[m]?.[flat - (index.offset[m] as number)] ?? 0
  }
  const base = prepared.staticTokens + prepared.systemTokens
  const sums = new Float64Array(plan.threads.length)
  const restarted = new Uint8Array(plan.threads.length)
  const droppedByMessage = new Float64Array(messages.length)
  for (const flat of plan.dropped) {
    const m = plan.messageOfPart[flat] as number
    droppedByMessage[m] = (droppedByMessage[m] as number) + flatPrice(flat)
  }
  const out: VisibleContext[] = []
  let nextCall = 0
  for (let m = 0; m < messages.length; m++) {
    const t = plan.threadOf[m] as number
    if (plan.calls[nextCall] === m) {
      out.push({
        index: m,
        thread: t,
        tokens: base + (sums[t] as number),
        upstreamCompaction: restarted[t] === 1,
      })
      restarted[t] = 0
      nextCall++
    }
    if (plan.resetAt[m]) {
      sums[t] = 0
      restarted[t] = 1
    }
    const strip = plan.stripAt.get(m)
    if (strip) for (const flat of strip) sums[t] = (sums[t] as number) - flatPrice(flat)
    sums[t] =
      (sums[t] as number) + (prepared.messageTokens[m] as number) - (droppedByMessage[m] as number)
  }
  return out
}
