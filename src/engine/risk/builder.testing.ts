/**
 * Test-only: write a small agent transcript as steps, and remove some of its groups the way the
 * engine's projection would (exclude, stub, trim, summarise), without running a strategy. The
 * labelled risk cases use it so each case says exactly what was removed.
 */
import { prepare, type Prepared } from '../compaction/prepared.ts'
import type { Decision } from '../compaction/types.ts'
import type { Conversation, Message, Part } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import type { RiskInput } from './assess.ts'

export type Step =
  | { readonly user: string }
  | { readonly say: string; readonly thread?: string }
  /** An assistant message with a tool call (and optional text), then the tool's result. */
  | {
      readonly call: string
      readonly args: Readonly<Record<string, unknown>>
      readonly result: string
      readonly say?: string
      readonly thread?: string
    }

export type Removal =
  | { readonly step: number; readonly how: 'exclude' }
  | { readonly step: number; readonly how: 'stub' | 'trim'; readonly text: string }
  | { readonly step: number; readonly how: 'summarise'; readonly text: string }

export interface Built {
  readonly prepared: Prepared
  /** Group id of each step. */
  readonly groupOf: readonly string[]
  readonly input: RiskInput
}

const text = (t: string): Part => ({ kind: 'text', text: t })

function messagesOf(steps: readonly Step[]): { messages: Message[]; firstOf: number[] } {
  const messages: Message[] = []
  const firstOf: number[] = []
  steps.forEach((s, i) => {
    firstOf.push(messages.length)
    const id = `m${messages.length}`
    if ('user' in s) {
      messages.push({ id, role: 'user', parts: [text(s.user)] })
    } else if ('call' in s) {
      const callId = `call${i}`
      const thread = s.thread ? { sidechain: s.thread } : {}
      messages.push({
        id,
        role: 'assistant',
        ...thread,
        parts: [
          ...(s.say ? [text(s.say)] : []),
          {
            kind: 'tool_call',
            callId,
            name: s.call,
            argsRaw: JSON.stringify(s.args),
            args: s.args,
          },
        ],
      })
      messages.push({
        id: `m${messages.length}`,
        role: 'tool',
        ...thread,
        parts: [
          {
            kind: 'tool_result',
            callId,
            content: [{ kind: 'text', text: s.result }],
            isError: false,
          },
        ],
      })
    } else {
      messages.push({
        id,
        role: 'assistant',
        ...(s.thread ? { sidechain: s.thread } : {}),
        parts: [text(s.say)],
      })
    }
  })
  return { messages, firstOf }
}

export function conversationOf(
  steps: readonly Step[],
  extra: Partial<Conversation> = {},
): Conversation {
  return {
    meta: { format: 'openai-chat' },
    system: [],
    tools: [],
    messages: messagesOf(steps).messages,
    markers: [],
    ...extra,
  }
}

const base = (groupId: string) => ({
  strategy: 'test',
  step: 0,
  reason: 'pruned' as const,
  sentence: 'test removal',
  groupId,
  tokensBefore: 100,
  tokensAfter: 0,
})

/** Build the conversation and a projection with `removals` applied. */
export function build(
  steps: readonly Step[],
  removals: readonly Removal[],
  extra: Partial<Conversation> = {},
): Built {
  const conversation = conversationOf(steps, extra)
  const { firstOf } = messagesOf(steps)
  const prepared = prepare(conversation, estimateCounter)
  const groupOf = firstOf.map(
    (m) => prepared.grouping.groups[prepared.grouping.groupOfMessage[m] as number]?.id ?? '',
  )
  const byMessage = new Map<number, Removal>()
  const decisions: Decision[] = []
  for (const r of removals) {
    const g = prepared.grouping.groupOfMessage[firstOf[r.step] as number] as number
    for (const m of prepared.grouping.groups[g]?.messages ?? []) byMessage.set(m, r)
    const groupId = groupOf[r.step] as string
    decisions.push(
      r.how === 'stub' || r.how === 'trim'
        ? {
            ...base(groupId),
            kind: r.how,
            tokensAfter: 10,
            messageId: '',
            target: { message: 0, part: 0 },
            replacement: null,
          }
        : { ...base(groupId), kind: 'exclude' },
    )
  }
  const projection: Message[] = []
  const summarised = new Set<Removal>()
  conversation.messages.forEach((msg, m) => {
    const r = byMessage.get(m)
    if (!r) return void projection.push(msg)
    switch (r.how) {
      case 'exclude':
        return
      case 'summarise':
        if (!summarised.has(r)) {
          summarised.add(r)
          projection.push({
            id: `summary${r.step}`,
            role: 'user',
            parts: [text(r.text)],
            summaryOf: { strategy: 'test', groups: [groupOf[r.step] as string] },
          })
        }
        return
      case 'stub':
      case 'trim': {
        const parts = msg.parts.map((p) =>
          p.kind === 'tool_result'
            ? ({ ...p, content: [{ kind: 'text', text: r.text }] } as Part)
            : p,
        )
        projection.push({ ...msg, parts })
        return
      }
    }
  })
  return {
    prepared,
    groupOf,
    input: { projection: { ...conversation, messages: projection }, decisions },
  }
}
