// Builders shared by the accounting tests: tiny conversations in the engine's model, and a
// synthetic session whose reported usage follows a known (prefix, scale) model exactly.
import { prepare } from '../compaction/prepared.ts'
import type { Conversation, FormatId, Message, Part, ReportedUsage } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { visibleContexts } from './visible.ts'

export const counter = estimateCounter
export const words = (n: number, tag = 'w') =>
  Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ')
export const text = (t: string): Part => ({ kind: 'text', text: t })
export const thinking = (t: string): Part => ({ kind: 'reasoning', text: t, textKind: 'full' })
export const call = (id: string): Part => ({
  kind: 'tool_call',
  callId: id,
  name: 'Read',
  argsRaw: '{}',
})
export const result = (id: string, out: string): Part => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text: out }],
  isError: false,
})
export const user = (id: string, t: string, extra: Partial<Message> = {}): Message => ({
  id,
  role: 'user',
  parts: [text(t)],
  ...extra,
})
export const assistant = (id: string, parts: Part[], extra: Partial<Message> = {}): Message => ({
  id,
  role: 'assistant',
  parts,
  ...extra,
})
export const tool = (
  id: string,
  callId: string,
  out: string,
  extra: Partial<Message> = {},
): Message => ({
  id,
  role: 'tool',
  parts: [result(callId, out)],
  ...extra,
})
export const conv = (
  format: FormatId,
  messages: Message[],
  extra: Partial<Conversation> = {},
): Conversation => ({
  meta: { format },
  system: [],
  tools: [],
  messages,
  markers: [],
  ...extra,
})
export const usage = (
  contextTokens: number,
  extra: Partial<ReportedUsage> = {},
): ReportedUsage => ({
  contextTokens,
  source: 'test usage',
  ...extra,
})
export const tokensOf = (c: Conversation, ids: string[]) => {
  const p = prepare(c, counter)
  return ids.reduce(
    (t, id) => t + (p.messageTokens[c.messages.findIndex((m) => m.id === id)] as number),
    0,
  )
}
export const base = (c: Conversation) => {
  const p = prepare(c, counter)
  return p.staticTokens + p.systemTokens
}

/** A session of `n` tool-loop calls whose reported usage follows a known model exactly. */
export function synthetic(
  n: number,
  truth: { prefix: number; scale: number; stepAt?: number; step?: number },
  corrupt: (k: number, exact: number) => number | undefined = (_k, exact) => exact,
): Conversation {
  const messages: Message[] = [user('u0', words(50))]
  for (let k = 0; k < n; k++) {
    messages.push(assistant(`a${k}`, [call(`c${k}`)]))
    messages.push(tool(`t${k}`, `c${k}`, words(30 + ((k * 37) % 200), `k${k}x`)))
  }
  messages.push(assistant('last', [text('done')]))
  const c0 = conv('claude-code', messages)
  const v = visibleContexts(prepare(c0, counter))
  const withUsage = messages.map((m) => {
    const i = v.findIndex((x) => c0.messages[x.index] === m)
    if (i < 0) return m
    const prefix =
      truth.prefix + (truth.stepAt !== undefined && i >= truth.stepAt ? (truth.step ?? 0) : 0)
    const exact = Math.round(prefix + truth.scale * (v[i]?.tokens ?? 0))
    const reported = corrupt(i, exact)
    return reported === undefined ? m : { ...m, usage: usage(reported) }
  })
  return { ...c0, messages: withUsage }
}
