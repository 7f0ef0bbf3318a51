import type {
  Conversation,
  Message,
  Part,
  ResultContent,
  ToolCallPart,
  ToolResultPart,
} from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import type { Extra } from './parse.ts'
import { parseJson as parseJsonStrict } from '../../engine/json.ts'

type Obj = Record<string, unknown>

function rawOf(p: { meta?: Readonly<Record<string, unknown>> }): Obj {
  return isObject(p.meta?.raw) ? { ...p.meta.raw } : {}
}

function argsOf(c: ToolCallPart): unknown {
  if (c.args !== undefined) return c.args
  try {
    return parseJsonStrict(c.argsRaw) as unknown
  } catch {
    return c.argsRaw
  }
}

function textOf(content: readonly ResultContent[]): string {
  return content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
}

function payload(p: Extract<Part, { kind: 'image' | 'file' }>): string {
  if (p.data === undefined) return p.url ?? ''
  return p.meta?.form === 'base64' ? p.data : `data:${p.mediaType ?? ''};base64,${p.data}`
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonStrict(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** Canonical result → ModelMessage `tool-result` (v5 `output` or v4 `result`). */
function resultPart(r: ToolResultPart, names: ReadonlyMap<string, string>): Obj {
  const base = {
    ...rawOf(r),
    type: 'tool-result',
    toolCallId: r.callId,
    // AI SDK results name their tool; sources that do not (OpenAI-style) get it from the call.
    toolName:
      r.name ?? str(rawOf(r).toolName) ?? (r.callId ? names.get(r.callId) : undefined) ?? '',
  }
  const text = textOf(r.content)
  const type = str(r.meta?.outputType) ?? 'text'
  if (r.meta?.v4 === true) {
    const parsed = type === 'json' ? parseJson(text) : { ok: false as const }
    return {
      ...base,
      result: parsed.ok ? parsed.value : text,
      ...(r.isError ? { isError: true } : {}),
    }
  }
  const extra = isObject(r.meta?.outputRaw) ? r.meta.outputRaw : {}
  if (type === 'content') {
    const value = r.content.map((c) =>
      c.kind === 'text'
        ? { type: 'text', text: c.text }
        : c.kind === 'image' || c.kind === 'file'
          ? {
              ...rawOf(c),
              type: 'media',
              data: c.data ?? c.url ?? '',
              mediaType: c.mediaType ?? '',
            }
          : c.kind === 'opaque'
            ? c.raw
            : null,
    )
    return { ...base, output: { ...extra, type, value } }
  }
  if (type === 'execution-denied') return { ...base, output: { ...extra, type, reason: text } }
  if (type === 'json' || type === 'error-json') {
    const parsed = parseJson(text)
    if (parsed.ok)
      return {
        ...base,
        output: { ...extra, type: r.isError ? 'error-json' : 'json', value: parsed.value },
      }
  }
  return { ...base, output: { ...extra, type: r.isError ? 'error-text' : 'text', value: text } }
}

/** Canonical part → ModelMessage content part. */
function modelPart(p: Part, names: ReadonlyMap<string, string>): unknown {
  switch (p.kind) {
    case 'text':
      return { type: 'text', ...rawOf(p), text: p.text }
    case 'reasoning':
      if (p.redacted) return { type: 'redacted-reasoning', data: p.opaque?.data ?? '' }
      return { type: 'reasoning', ...rawOf(p), text: p.text }
    case 'image':
      return { type: 'image', ...rawOf(p), image: payload(p) }
    case 'file':
      return {
        type: 'file',
        ...rawOf(p),
        data: payload(p),
        mediaType: p.mediaType ?? str(rawOf(p).mediaType) ?? '',
      }
    case 'tool_call':
      return {
        type: 'tool-call',
        ...rawOf(p),
        toolCallId: p.callId,
        toolName: p.name,
        [p.meta?.v4 === true ? 'args' : 'input']: argsOf(p),
      }
    case 'tool_result':
      return resultPart(p, names)
    case 'opaque':
      return p.raw
  }
}

function writeModel(m: Message, names: ReadonlyMap<string, string>): Obj {
  const src = m.source ?? {}
  const raw = isObject(src.raw) ? { ...src.raw } : {}
  const only = m.parts[0]
  const content =
    src.contentString === true &&
    m.parts.length <= 1 &&
    (only === undefined || (only.kind === 'text' && !only.meta))
      ? only?.kind === 'text'
        ? only.text
        : ''
      : m.parts.map((p) => modelPart(p, names))
  return { ...raw, role: m.role, content }
}

/** Canonical call (+ its result) → UIMessage tool part. */
function uiTool(c: ToolCallPart, r: ToolResultPart | undefined): Obj {
  const raw = rawOf(c)
  const inv = isObject(raw.toolInvocation) ? raw.toolInvocation : undefined
  const output = r && r.meta?.json === true ? parseJson(textOf(r.content)) : undefined
  const value = output?.ok ? output.value : r ? textOf(r.content) : undefined
  if (inv) {
    return {
      ...raw,
      toolInvocation: {
        ...inv,
        toolCallId: c.callId,
        toolName: c.name,
        args: argsOf(c),
        ...(r ? { state: 'result', result: value } : {}),
      },
    }
  }
  const type = str(raw.type) ?? `tool-${c.name}`
  const state = r
    ? r.isError
      ? 'output-error'
      : 'output-available'
    : raw.state === 'input-streaming'
      ? 'input-streaming'
      : 'input-available'
  return {
    ...raw,
    type,
    ...(type === 'dynamic-tool' ? { toolName: c.name } : {}),
    toolCallId: c.callId,
    state,
    input: argsOf(c),
    ...(r && !r.isError ? { output: value } : {}),
    ...(r?.isError ? { errorText: textOf(r.content) } : {}),
  }
}

function uiPart(p: Part): Obj | undefined {
  switch (p.kind) {
    case 'text':
    case 'reasoning':
      return { type: p.kind, ...rawOf(p), text: p.text }
    case 'image':
    case 'file': {
      const url =
        p.data !== undefined ? `data:${p.mediaType ?? ''};base64,${p.data}` : (p.url ?? '')
      return { type: 'file', mediaType: p.mediaType ?? '', ...rawOf(p), url }
    }
    default:
      return undefined
  }
}

/** Rejoin the step messages (and their tool messages) of each UIMessage. */
function writeUi(messages: readonly Message[]): Obj[] {
  const out: Obj[] = []
  let current:
    | {
        uiId: string
        msg: Obj
        parts: Obj[]
        calls: Map<string, { part: Obj; call: ToolCallPart }>
      }
    | undefined
  for (const m of messages) {
    const uiId = str(m.source?.uiId) ?? m.id
    if (!current || current.uiId !== uiId) {
      const raw = isObject(m.source?.raw) ? m.source.raw : { id: uiId }
      current = {
        uiId,
        msg: { ...raw, role: m.role === 'tool' ? 'assistant' : m.role },
        parts: [],
        calls: new Map(),
      }
      out.push(current.msg)
      current.msg.parts = current.parts
    }
    const cur = current
    if (m.role === 'tool') {
      for (const r of m.parts) {
        if (r.kind !== 'tool_result') continue
        const hit = r.callId !== null ? cur.calls.get(r.callId) : undefined
        if (hit) Object.assign(hit.part, uiTool(hit.call, r))
        else
          cur.parts.push(
            uiTool(
              { kind: 'tool_call', callId: r.callId, name: r.name ?? '', argsRaw: '{}', args: {} },
              r,
            ),
          )
      }
      continue
    }
    const extras = (Array.isArray(m.source?.extras) ? m.source.extras : []) as Extra[]
    m.parts.forEach((p, i) => {
      for (const e of extras) if (e.before === i) cur.parts.push({ ...e.part })
      if (p.kind === 'tool_call') {
        const next = m.parts[i + 1]
        const inline = next?.kind === 'tool_result' && next.callId === p.callId ? next : undefined
        const part = uiTool(p, inline)
        cur.parts.push(part)
        if (p.callId !== null) cur.calls.set(p.callId, { part, call: p })
        return
      }
      const u = uiPart(p)
      if (u) cur.parts.push(u)
    })
    for (const e of extras)
      if (e.before === null || e.before >= m.parts.length) cur.parts.push({ ...e.part })
  }
  return out
}

/** Write ModelMessage or UIMessage arrays back (in `{…, messages}` when that was the input). */
export function serialize(conversation: Conversation): string {
  const source = conversation.source ?? {}
  const names = callNames(conversation.messages)
  const list =
    source.shape === 'ui'
      ? writeUi(conversation.messages)
      : conversation.messages.map((m) => writeModel(m, names))
  const envelope = isObject(source.envelope) ? source.envelope : undefined
  return JSON.stringify(envelope ? { ...envelope, messages: list } : list, null, 2)
}

/** Tool name of every call id, for results whose source did not record the name. */
function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const m of messages) {
    for (const p of m.parts) if (p.kind === 'tool_call' && p.callId) names.set(p.callId, p.name)
  }
  return names
}
