import type { Conversation, Message } from '../model.ts'
import { modelFamily } from '../tokens/pricing.ts'
import { partIndexOf, type Prepared } from '../compaction/prepared.ts'
import { mapItems } from '../arrays.ts'
import { withFields } from '../objects.ts'

/**
 * How a provider treats reasoning from earlier calls when it counts a prompt.
 * - `strip_previous_turns`: Anthropic extended thinking. Thinking blocks of earlier assistant
 *   turns are removed before counting; those of the current tool-use loop (since the last real
 *   user message) are kept.
 * - `keep`: reasoning sent back is counted like any other input (Responses API reasoning items,
 *   Codex encrypted reasoning).
 * - `drop`: the provider never takes reasoning text back as input (Gemini thoughts).
 */
export type ThinkingRule = 'strip_previous_turns' | 'keep' | 'drop'

export interface ProviderRules {
  readonly provider: 'anthropic' | 'openai' | 'gemini' | 'other'
  readonly thinking: ThinkingRule
  /** Why these rules were chosen (shown next to the figures). */
  readonly why: string
}

/**
 * The structure of the contexts in a transcript, computed once per prepared conversation: which
 * messages are model calls, which context (thread) each message belongs to, where an upstream
 * compaction restarted a thread's context, and which reasoning parts leave the context when.
 *
 * Threads: the main agent is thread 0; every sidechain / sub-agent id is a thread of its own with
 * its own context (a sub-agent never sees the parent's history, nor the parent the sub-agent's).
 */
export interface ContextPlan {
  readonly threads: readonly string[]
  /** Thread of each message. */
  readonly threadOf: Int32Array
  /** 1 where an upstream compaction restarts the message's thread context (the summary message). */
  readonly resetAt: Uint8Array
  /**
   * Message index → flat part numbers (see `partIndexOf`) of reasoning parts of the same thread
   * that are no longer in the context once this message is: previous-turn thinking.
   */
  readonly stripAt: ReadonlyMap<number, Int32Array>
  /** Flat part numbers of reasoning parts that never count (`drop` rule). */
  readonly dropped: Int32Array
  /** Message indexes of the model calls (assistant messages), ascending. */
  readonly calls: Int32Array
  /** Flat part number → its message index. */
  readonly messageOfPart: Int32Array
  readonly rules: ProviderRules
}

/** Is this assistant message a model call? (Inserted summaries are not; the very first message
 * can have no context to measure.) */
export function isModelCall(m: Message, index: number): boolean {
  return m.role === 'assistant' && !m.summaryOf && index > 0
}

export function providerRules(conversation: Conversation): ProviderRules {
  const { format, model } = conversation.meta
  const family = modelFamily(model)
  if (format === 'claude-code' || format === 'anthropic-messages' || family === 'claude')
    return {
      provider: 'anthropic',
      thinking: 'strip_previous_turns',
      why: 'Anthropic: thinking of earlier turns is not counted; the current tool-use loop keeps its thinking',
    }
  if (format === 'codex' || format === 'openai-responses' || family === 'openai')
    return {
      provider: 'openai',
      thinking: 'strip_previous_turns',
      why: 'OpenAI: reasoning items of earlier turns are dropped; those of the current tool loop are counted',
    }
  if (format === 'gemini' || format === 'gemini-cli' || family === 'gemini')
    return {
      provider: 'gemini',
      thinking: 'drop',
      why: 'Gemini: thought text is never sent back as input',
    }
  return {
    provider: 'other',
    thinking: 'keep',
    why: 'unknown provider: everything sent is counted',
  }
}

const plans = new WeakMap<Prepared, Map<ThinkingRule | 'default', ContextPlan>>()

/**
 * The context plan of a prepared conversation (cached per `Prepared`), under the provider's
 * documented thinking rule or the one given (the reconciliation may find that another fits the
 * reported usage).
 */
export function contextPlan(prepared: Prepared, thinking?: ThinkingRule): ContextPlan {
  let byRule = plans.get(prepared)
  if (!byRule) {
    byRule = new Map()
    plans.set(prepared, byRule)
  }
  const hit = byRule.get(thinking ?? 'default')
  if (hit) return hit
  const plan = buildPlan(prepared, thinking)
  byRule.set(thinking ?? 'default', plan)
  return plan
}

/** The other thinking rule worth testing against reported usage, if any. */
export function alternativeRule(plan: ContextPlan): ThinkingRule | null {
  if (plan.rules.provider !== 'anthropic' && plan.rules.provider !== 'openai') return null
  // No earlier-turn reasoning to strip: both rules give the same figures.
  if (plan.rules.thinking === 'strip_previous_turns' && plan.stripAt.size === 0) return null
  return plan.rules.thinking === 'strip_previous_turns' ? 'keep' : 'strip_previous_turns'
}

function buildPlan(prepared: Prepared, thinking?: ThinkingRule): ContextPlan {
  const { messages, markers } = prepared.conversation
  const index = partIndexOf(prepared)
  const documented = providerRules(prepared.conversation)
  const rules: ProviderRules =
    thinking === undefined || thinking === documented.thinking
      ? documented
      : withFields(documented, {
          thinking,
          why:
            thinking === 'keep'
              ? `${documented.provider}: thinking of earlier turns is counted (it fits this transcript's reported usage better than the documented rule)`
              : `${documented.provider}: thinking of earlier turns is not counted (fits this transcript's reported usage better)`,
        })
  const threads: string[] = ['main']
  const threadId = new Map<string, number>([['main', 0]])
  const threadOf = new Int32Array(messages.length)
  const resetAt = new Uint8Array(messages.length)
  const calls: number[] = []
  for (let m = 0; m < messages.length; m++) {
    const msg = messages[m] as Message
    const name = msg.sidechain ?? 'main'
    let t = threadId.get(name)
    if (t === undefined) {
      t = threads.length
      threads.push(name)
      threadId.set(name, t)
    }
    threadOf[m] = t
    if (isModelCall(msg, m)) calls.push(m)
  }
  for (const marker of markers)
    if (marker.beforeIndex >= 0 && marker.beforeIndex < messages.length)
      resetAt[marker.beforeIndex] = 1

  const stripAt = new Map<number, Int32Array>()
  const dropped: number[] = []
  if (rules.thinking !== 'keep') {
    // Reasoning parts of each thread waiting to leave the context at the next real user message.
    const pending: number[][] = mapItems(threads, () => [])
    for (let m = 0; m < messages.length; m++) {
      const msg = messages[m] as Message
      const t = threadOf[m] as number
      const queue = pending[t] as number[]
      if (resetAt[m]) queue.length = 0
      if (rules.thinking === 'strip_previous_turns' && startsUserTurn(msg) && queue.length > 0) {
        stripAt.set(m, Int32Array.from(queue))
        queue.length = 0
      }
      if (msg.role !== 'assistant') continue
      msg.parts.forEach((p, i) => {
        if (p.kind !== 'reasoning') return
        const flat = (index.offset[m] as number) + i
        if (rules.thinking === 'drop') dropped.push(flat)
        else queue.push(flat)
      })
    }
  }
  const messageOfPart = new Int32Array(index.offset[messages.length] as number)
  for (let m = 0; m < messages.length; m++)
    messageOfPart.fill(m, index.offset[m] as number, index.offset[m + 1] as number)
  return {
    threads,
    threadOf,
    messageOfPart,
    resetAt,
    stripAt,
    dropped: Int32Array.from(dropped),
    calls: Int32Array.from(calls),
    rules,
  }
}

/**
 * A user message that ends the previous assistant turn for the thinking rule: any user message
 * that is not only tool results (system reminders and command wrappers count — the API sees a
 * user message with text either way).
 */
function startsUserTurn(m: Message): boolean {
  return m.role === 'user' && !m.parts.every((p) => p.kind === 'tool_result')
}
