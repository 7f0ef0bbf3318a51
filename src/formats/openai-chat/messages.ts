import type {
  Message,
  OpaquePart,
  Part,
  ResultContent,
  Role,
  ToolCallPart,
} from '../../engine/model.ts'
import { callFromRawArgs, describe, isObject, str } from '../util.ts'
import { contentFromChat, contentToChat, extraKeys, shapeOf } from './content.ts'
import type { ContentShape } from './content.ts'
import { pushAll } from '../../engine/arrays.ts'
import { newMessage, newToolCall, newToolResult } from '../shapes.ts'

/**
 * One Chat Completions message ⇄ one canonical message. Everything the canonical model does not
 * carry (original role, content shape, unknown keys) goes into `message.source` so the serializer
 * can write the same JSON shape back.
 */

const ROLE_MAP: Readonly<Record<string, Role>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
}

/** Keys mapped into parts; everything else is kept verbatim in `source.extra`. */
const MAPPED_SET: ReadonlySet<string> = new Set([
  'role',
  'content',
  'tool_calls',
  'function_call',
  'tool_call_id',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'thought_signature',
  'refusal',
])
/** Tool messages also map `name` (the tool's name) into the result part. */
const MAPPED_TOOL_SET: ReadonlySet<string> = new Set([...MAPPED_SET, 'name'])
const TOOL_CALL_KEYS = new Set(['id', 'type', 'function', 'custom'])

export type ChatMessageOutcome = { ok: true; message: Message } | { ok: false; problem: string }

/** Parse one message object. `problems` collects recoverable oddities (the message still loads). */
export function parseChatMessage(raw: unknown, id: string, problems: string[]): ChatMessageOutcome {
  if (!isObject(raw))
    return { ok: false, problem: `expected a message object with \`role\`, got ${describe(raw)}` }
  const sourceRole = str(raw.role)
  const role = sourceRole !== undefined ? ROLE_MAP[sourceRole] : undefined
  if (!sourceRole || !role) {
    return {
      ok: false,
      problem: `expected \`role\` to be one of system, developer, user, assistant, tool, function; got ${
        sourceRole === undefined ? describe(raw.role) : JSON.stringify(sourceRole)
      }`,
    }
  }
  const isToolRole = role === 'tool'
  const extra = extraKeys(raw, isToolRole ? MAPPED_TOOL_SET : MAPPED_SET)
  const parts: Part[] = []
  const shape: ContentShape = shapeOf(raw.content, 'content' in raw)
  const source: Record<string, unknown> = { contentShape: shape }
  if (sourceRole !== role) source.role = sourceRole
  if (extra) source.extra = extra

  if (isToolRole) {
    const callId = 'tool_call_id' in raw ? toCallId(raw.tool_call_id) : null
    if (sourceRole === 'tool' && !('tool_call_id' in raw))
      problems.push('tool message has no `tool_call_id`')
    parts.push(
      newToolResult({
        callId,
        name: str(raw.name),
        content: contentFromChat(raw.content),
        isError: false,
      }),
    )
    if ('tool_call_id' in raw && raw.tool_call_id === null) source.nullCallId = true
    return { ok: true, message: newMessage({ id, role, parts, source }) }
  }

  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const value = raw[field]
    if (typeof value === 'string' && value !== '') {
      parts.push({ kind: 'reasoning', text: value, textKind: 'full', meta: { field } })
    } else if (field in raw) {
      source[`${field}Raw`] = value // '' or null: nothing to count, but written back as is
    }
  }
  if (raw.reasoning_details !== undefined)
    parts.push(opaque('reasoning_details', raw.reasoning_details, 'reasoning_details'))

  pushAll(parts, contentFromChat(raw.content) as Part[])
  if (typeof raw.refusal === 'string') {
    parts.push({ kind: 'text', text: raw.refusal, meta: { refusalField: true } })
  } else if ('refusal' in raw) source.refusalRaw = raw.refusal

  if (Array.isArray(raw.tool_calls)) {
    raw.tool_calls.forEach((tc, i) => {
      const call = toolCallFromChat(tc)
      if (call) parts.push(call)
      else
        problems.push(
          `tool_calls[${i}]: expected {id, type, function:{name, arguments}}, got ${describe(tc)}`,
        )
    })
  } else if ('tool_calls' in raw) source.toolCallsRaw = raw.tool_calls
  if (isObject(raw.function_call)) {
    const fc = raw.function_call
    parts.push(
      callFromRawArgs(
        { callId: null, name: str(fc.name) ?? '', callType: 'function_call' },
        str(fc.arguments) ?? '',
      ),
    )
  }
  if (typeof raw.thought_signature === 'string') {
    parts.push({
      kind: 'opaque',
      opaque: {
        label: 'thought_signature',
        bytes: raw.thought_signature.length,
        data: raw.thought_signature,
      },
      meta: { field: 'thought_signature' },
    })
  }
  // Gemini's OpenAI-compatible endpoint: the signature must be sent back, so it is kept (and counted).
  const google = isObject(extra?.extra_content) ? extra.extra_content.google : undefined
  if (isObject(google) && typeof google.thought_signature === 'string' && extra) {
    parts.push({
      kind: 'opaque',
      opaque: {
        label: 'thought_signature',
        bytes: google.thought_signature.length,
        data: google.thought_signature,
      },
      raw: extra.extra_content,
      meta: { field: 'extra_content' },
    })
    delete extra.extra_content
    if (Object.keys(extra).length === 0) delete source.extra
  }
  return { ok: true, message: newMessage({ id, role, parts, source }) }
}

function toCallId(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return null
}

function opaque(label: string, raw: unknown, field: string): OpaquePart {
  return {
    kind: 'opaque',
    opaque: { label, bytes: (JSON.stringify(raw) ?? '').length },
    raw,
    meta: { field },
  }
}

export function toolCallFromChat(tc: unknown): ToolCallPart | null {
  if (!isObject(tc)) return null
  const extra = extraKeys(tc, TOOL_CALL_KEYS)
  const callId = 'id' in tc ? toCallId(tc.id) : null
  const type = str(tc.type) ?? 'function'
  const meta: Record<string, unknown> = {}
  if (extra) meta.extra = extra
  if (!('type' in tc)) meta.noType = true
  if (isObject(tc.custom)) {
    const input = str(tc.custom.input) ?? ''
    return newToolCall({
      callId,
      name: str(tc.custom.name) ?? '',
      argsRaw: input,
      callType: 'custom',
      meta,
    })
  }
  if (isObject(tc.function)) {
    const fn = tc.function
    const args = fn.arguments
    if (typeof args !== 'string' && args !== undefined) meta.argsObject = true // some servers send objects
    const raw = typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args)
    return callFromRawArgs({ callId, name: str(fn.name) ?? '', callType: type, meta }, raw)
  }
  return null
}

/** Canonical tool call → `tool_calls[]` entry. */
export function toolCallToChat(part: ToolCallPart): Record<string, unknown> {
  const meta = part.meta ?? {}
  const extra = isObject(meta.extra) ? meta.extra : {}
  const out: Record<string, unknown> = {}
  if (part.callId !== null) out.id = part.callId
  if (meta.noType !== true)
    out.type = part.callType === 'custom' ? 'custom' : (part.callType ?? 'function')
  if (part.callType === 'custom') out.custom = { name: part.name, input: part.argsRaw }
  else
    out.function = {
      name: part.name,
      arguments: meta.argsObject === true ? part.args : part.argsRaw,
    }
  return { ...out, ...extra }
}

/** Canonical message → Chat Completions message object. */
export function messageToChat(message: Message): Record<string, unknown> {
  const src = message.source ?? {}
  const shape = str(src.contentShape) as ContentShape | undefined
  const extra = isObject(src.extra) ? src.extra : {}
  const role = str(src.role) ?? message.role
  const out: Record<string, unknown> = { role }
  if (message.role === 'tool') {
    const result = message.parts.find((p) => p.kind === 'tool_result')
    const content: ResultContent[] = result?.kind === 'tool_result' ? [...result.content] : []
    // Text a strategy left beside the result (e.g. a placeholder) still belongs to the content.
    for (const p of message.parts) if (p.kind === 'text') content.push(p)
    const value = contentToChat(content, shape)
    if (value !== undefined) out.content = value
    if (result?.kind === 'tool_result') {
      if (result.callId !== null) out.tool_call_id = result.callId
      else if (src.nullCallId === true) out.tool_call_id = null
      if (result.name !== undefined) out.name = result.name
    }
    return { ...out, ...extra }
  }
  const content: ResultContent[] = []
  const calls: Record<string, unknown>[] = []
  for (const p of message.parts) {
    if (p.kind === 'reasoning') {
      const field = str(p.meta?.field) ?? 'reasoning_content'
      out[field] = typeof out[field] === 'string' ? `${out[field] as string}\n\n${p.text}` : p.text
    } else if (p.kind === 'text' && p.meta?.refusalField === true) out.refusal = p.text
    else if (p.kind === 'tool_call') {
      if (p.callType === 'function_call') out.function_call = { name: p.name, arguments: p.argsRaw }
      else calls.push(toolCallToChat(p))
    } else if (p.kind === 'opaque' && p.meta?.field === 'thought_signature')
      out.thought_signature = p.opaque.data
    else if (p.kind === 'opaque' && p.meta?.field === 'extra_content') out.extra_content = p.raw
    else if (p.kind === 'opaque' && p.meta?.field === 'reasoning_details')
      out.reasoning_details = p.raw
    else if (p.kind === 'tool_result') pushAll(content, p.content)
    else content.push(p)
  }
  for (const field of ['reasoning_content', 'reasoning']) {
    if (!(field in out) && `${field}Raw` in src) out[field] = src[`${field}Raw`]
  }
  if (!('refusal' in out) && 'refusalRaw' in src) out.refusal = src.refusalRaw
  const defaultShape: ContentShape | undefined =
    shape ?? (calls.length > 0 && content.length === 0 ? 'null' : undefined)
  const value = contentToChat(content, defaultShape)
  if (value !== undefined) out.content = value
  if (calls.length > 0) out.tool_calls = calls
  else if ('toolCallsRaw' in src) out.tool_calls = src.toolCallsRaw
  return { ...orderLike(out), ...extra }
}

/** Put `role` and `content` first: cosmetic, but keeps serialized files readable. */
function orderLike(out: Record<string, unknown>): Record<string, unknown> {
  const { role, content, ...rest } = out
  return { role, ...(content !== undefined ? { content } : {}), ...rest }
}
