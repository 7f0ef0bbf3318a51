import type {
  Conversation,
  Message,
  Part,
  ResultContent,
  ToolCallPart,
  ToolResultPart,
} from '../../engine/model.ts'
import { partsToGemini, responseObject } from '../gemini/parts-out.ts'
import { isObject, str } from '../util.ts'
import type { AsideRecord } from './parse.ts'
import { pushAll } from '../../engine/arrays.ts'

type Json = Record<string, unknown>

/** Put keys in the order the source record had them (new keys last). */
function ordered(fields: Json, order: unknown): Json {
  const keys = Array.isArray(order) ? order.filter((k): k is string => typeof k === 'string') : []
  const out: Json = {}
  for (const k of keys) if (k in fields && fields[k] !== undefined) out[k] = fields[k]
  for (const [k, v] of Object.entries(fields)) if (!(k in out) && v !== undefined) out[k] = v
  return out
}

function obj(value: unknown): Json {
  return isObject(value) ? value : {}
}

/** Result content → the `result` parts array Gemini CLI stores on the call. */
function resultOut(content: readonly ResultContent[]): unknown {
  const first = content[0]
  if (content.length === 1 && first?.kind === 'text' && first.meta?.resultString) return first.text
  const out: unknown[] = []
  for (const c of content) {
    const fr = c.kind === 'text' ? c.meta?.functionResponse : undefined
    if (c.kind === 'text' && isObject(fr)) {
      const call: Json = {}
      if (typeof fr.id === 'string') call.id = fr.id
      call.name = str(fr.name) ?? ''
      call.response = responseObject(c.text, fr)
      out.push({ functionResponse: { ...call, ...obj(fr.resultExtras) }, ...obj(fr.extras) })
    } else pushAll(out, partsToGemini([c]))
  }
  return out
}

/**
 * Tool results are separate canonical messages but live inside the call in the recording: match
 * them back by call id (in order, when a recording reuses an id), or — for calls without id — by
 * order.
 */
class ResultIndex {
  private readonly byId = new Map<string, ToolResultPart[]>()
  private readonly anonymous: ToolResultPart[] = []

  constructor(messages: readonly Message[]) {
    for (const m of messages) {
      if (m.role !== 'tool') continue
      for (const p of m.parts) {
        if (p.kind !== 'tool_result') continue
        if (p.callId === null) this.anonymous.push(p)
        else {
          const queue = this.byId.get(p.callId)
          if (queue) queue.push(p)
          else this.byId.set(p.callId, [p])
        }
      }
    }
  }

  take(call: ToolCallPart): ToolResultPart | undefined {
    if (call.callId !== null) return this.byId.get(call.callId)?.shift()
    return this.anonymous.shift()
  }
}

function callOut(p: ToolCallPart, results: ResultIndex): Json {
  const result = results.take(p)
  const status = p.meta?.status ?? (result ? (result.isError ? 'error' : 'success') : undefined)
  const fields: Json = {
    ...(p.callId !== null ? { id: p.callId } : {}),
    name: p.name,
    args: p.args !== undefined ? p.args : p.argsRaw,
    ...(result ? { result: resultOut(result.content) } : {}),
    status,
    ...obj(p.meta?.extras),
  }
  return ordered(fields, p.meta?.keyOrder)
}

function textOf(parts: readonly Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
}

/** Missing content is written as ''; a `null` the record held is written back as null. */
const orEmpty = (content: unknown): unknown => (content === undefined ? '' : content)

function contentOut(m: Message, parts: readonly Part[]): unknown {
  const shape = m.source?.contentShape
  if (shape === 'missing' && parts.length === 0) return undefined
  if (shape === 'array') return partsToGemini(parts)
  if (shape === 'part' && parts.length > 0)
    return parts.length === 1 ? partsToGemini(parts)[0] : partsToGemini(parts)
  if (parts.every((p) => p.kind === 'text' && !p.meta)) return textOf(parts)
  return partsToGemini(parts)
}

function geminiRecord(m: Message, results: ResultIndex): Json {
  const thoughts = m.parts.filter((p) => p.kind === 'reasoning')
  const calls = m.parts.filter((p): p is ToolCallPart => p.kind === 'tool_call')
  const content = m.parts.filter((p) => p.kind !== 'reasoning' && p.kind !== 'tool_call')
  const fields: Json = {
    id: m.id,
    timestamp: m.timestamp,
    type: 'gemini',
    content: orEmpty(contentOut(m, content)),
    ...(calls.length > 0 || m.source?.hasToolCalls
      ? { toolCalls: calls.map((c) => callOut(c, results)) }
      : {}),
    ...(thoughts.length > 0 || m.source?.hasThoughts
      ? {
          thoughts: thoughts.map((t) => ({
            ...(t.meta?.subject !== undefined ? { subject: t.meta.subject } : {}),
            description: t.text,
            ...obj(t.meta?.extras),
          })),
        }
      : {}),
    tokens: m.source?.tokens,
    model: m.model,
    ...obj(m.source?.extras),
  }
  return ordered(fields, m.source?.keyOrder)
}

function userRecord(m: Message, type: string): Json {
  const fields: Json = {
    id: m.id,
    timestamp: m.timestamp,
    type,
    content: orEmpty(contentOut(m, m.parts)),
    ...obj(m.source?.extras),
  }
  return ordered(fields, m.source?.keyOrder)
}

/**
 * Write a Gemini CLI recording: user and gemini records, tool results folded back into the gemini
 * record's `toolCalls`, info/error records re-inserted after the message they followed.
 */
export function serializeGeminiCli(c: Conversation): string {
  const aside = (Array.isArray(c.source?.aside) ? c.source.aside : []) as AsideRecord[]
  const pending = [...aside].sort((a, b) => a.index - b.index)
  const results = new ResultIndex(c.messages)
  const records: unknown[] = []
  for (const m of c.messages) {
    if (m.role === 'tool') continue
    // Kept-aside records go back before the first message that followed them in the source,
    // so removing a message (compaction) does not move them.
    const at = m.source?.recordIndex
    if (typeof at === 'number')
      while (pending[0] && pending[0].index < at) records.push(pending.shift()?.record)
    if (m.role === 'assistant') records.push(geminiRecord(m, results))
    else records.push(userRecord(m, m.role === 'system' ? 'info' : 'user'))
  }
  for (const a of pending) records.push(a.record)
  const envelope = obj(c.source?.envelope)
  const fields: Json = { ...envelope, messages: records }
  if (!('sessionId' in fields)) fields.sessionId = c.meta.sessionId ?? 'imported'
  if (!('projectHash' in fields)) fields.projectHash = ''
  return JSON.stringify(ordered(fields, c.source?.keyOrder), null, 2)
}
