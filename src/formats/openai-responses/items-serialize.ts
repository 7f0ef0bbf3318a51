import type { Message, Part, ResultContent } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { partToResponses } from './content.ts'
import { pushAll } from '../../engine/arrays.ts'
import { parseJson } from '../../engine/json.ts'

/**
 * Canonical messages → Responses items: the inverse of `parseResponseItems` (items.ts).
 *
 * Assistant messages are split back into items by `part.meta.item`; parts a strategy created
 * (no `meta.item`) become plain items (`message` with `output_text`, `function_call`,
 * `reasoning`). Opaque parts marked `meta.wholeItem` (compaction, item_reference, unknown items)
 * are written back verbatim.
 */
export function serializeResponseItems(messages: readonly Message[]): unknown[] {
  const out: unknown[] = []
  for (const m of messages) {
    if (m.role === 'assistant') pushAll(out, assistantItems(m))
    else if (m.role === 'tool') pushAll(out, toolItems(m))
    else pushAll(out, inputItems(m))
  }
  return out
}

function obj(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {}
}

function isWholeItem(p: Part): boolean {
  return p.kind === 'opaque' && p.meta?.wholeItem === true
}

function inputItems(m: Message): unknown[] {
  const src = obj(m.source)
  const out: unknown[] = []
  const content: ResultContent[] = []
  let hadContent = false
  const flush = (force: boolean) => {
    if (!force && content.length === 0) return
    const single = content[0]
    const plain =
      content.length === 1 && single?.kind === 'text' && single.meta?.partType === undefined
    const value =
      src.easy === true && plain
        ? single.text
        : src.easy === true && content.length === 0
          ? ''
          : content.map((p) => partToResponses(p, 'input_text'))
    out.push({
      ...(src.noType === true ? {} : { type: 'message' }),
      role: str(src.role) ?? m.role,
      content: value,
      ...obj(src.itemExtra),
    })
    content.length = 0
    hadContent = true
  }
  for (const p of m.parts) {
    if (isWholeItem(p) && p.kind === 'opaque') {
      flush(false)
      out.push(p.raw)
    } else if (p.kind === 'text' || p.kind === 'image' || p.kind === 'file' || p.kind === 'opaque')
      content.push(p)
    else if (p.kind === 'tool_result') pushAll(content, p.content)
  }
  flush(!hadContent && out.length === 0)
  return out
}

function toolItems(m: Message): unknown[] {
  const src = obj(m.source)
  const extraText = m.parts.filter((p): p is ResultContent => p.kind === 'text')
  const out: unknown[] = []
  m.parts.forEach((p) => {
    if (p.kind !== 'tool_result') return
    const first = out.length === 0
    const content = first ? [...p.content, ...extraText] : [...p.content]
    const shape = str(src.outputShape) ?? 'string'
    let output: unknown
    if (shape === 'object' && content.length === 1 && content[0])
      output = partToResponses(content[0], 'input_text')
    else if (shape === 'array' || content.some((c) => c.kind !== 'text')) {
      output = content.map((c) => partToResponses(c, 'input_text'))
    } else if (!(shape === 'absent' && content.length === 0)) {
      output = content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
    }
    out.push({
      ...(first ? obj(src.itemExtra) : {}),
      type: str(src.itemType) ?? 'function_call_output',
      ...(p.callId !== null ? { call_id: p.callId } : {}),
      ...(output !== undefined ? { output } : {}),
    })
  })
  return out
}

/** Split an assistant message into groups of parts, one group per source item. */
function groups(parts: readonly Part[]): Part[][] {
  const out: Part[][] = []
  let key: unknown
  for (const p of parts) {
    const k = p.meta?.item
    const last = out[out.length - 1]
    const untaggedText = k === undefined && p.kind === 'text'
    if (last && k !== undefined && k === key) last.push(p)
    else if (last && untaggedText && key === '#text') last.push(p)
    else {
      out.push([p])
      key = k ?? (untaggedText ? '#text' : undefined)
    }
  }
  return out
}

function assistantItems(m: Message): unknown[] {
  return groups(m.parts).flatMap((g) => {
    const head = g[0]
    if (!head) return []
    if (isWholeItem(head) && head.kind === 'opaque') return [head.raw]
    const itemType =
      str(head.meta?.itemType) ??
      (head.kind === 'reasoning'
        ? 'reasoning'
        : head.kind === 'tool_call'
          ? itemTypeOf(head.callType)
          : 'message')
    const extra = obj(head.meta?.itemExtra)
    if (itemType === 'reasoning') return [reasoningItem(g, extra)]
    if (itemType === 'message') return [messageItem(g, extra)]
    const call = g.find((p) => p.kind === 'tool_call')
    if (!call || call.kind !== 'tool_call')
      return g.map((p) => partToResponses(p as ResultContent, 'output_text'))
    return [callItem(itemType, call, g, extra)]
  })
}

function messageItem(g: Part[], extra: Record<string, unknown>): unknown {
  const head = g[0]
  const meta = head?.meta ?? {}
  const content = g.filter(
    (p): p is ResultContent =>
      p.kind === 'text' || p.kind === 'image' || p.kind === 'file' || p.kind === 'opaque',
  )
  let value: unknown
  const single = content[0]
  if (
    'emptyContent' in meta &&
    content.length === 1 &&
    single?.kind === 'text' &&
    single.text === ''
  ) {
    value = meta.emptyContent
  } else if (meta.easy === true && content.length === 1 && single?.kind === 'text')
    value = single.text
  else value = content.map((p) => partToResponses(p, 'output_text'))
  return {
    ...(meta.noType === true ? {} : { type: 'message' }),
    role: 'assistant',
    content: value,
    ...extra,
  }
}

function texts(text: string, stored: unknown): string[] {
  if (
    Array.isArray(stored) &&
    stored.every((t) => typeof t === 'string') &&
    stored.join('\n\n') === text
  ) {
    return stored as string[]
  }
  return text === '' ? [] : [text]
}

function reasoningItem(g: Part[], extra: Record<string, unknown>): unknown {
  const item: Record<string, unknown> = { ...extra, type: 'reasoning' }
  for (const p of g) {
    if (p.kind !== 'reasoning') continue
    if (p.meta?.field === 'content') {
      item.content = texts(p.text, p.meta.texts).map((text) => ({ type: 'reasoning_text', text }))
      continue
    }
    if (p.meta?.noSummary !== true) {
      item.summary = texts(p.text, p.meta?.texts).map((text) => ({ type: 'summary_text', text }))
    }
    if (p.opaque?.data !== undefined) item.encrypted_content = p.opaque.data
  }
  return item
}

function callItem(
  type: string,
  call: Part & { kind: 'tool_call' },
  g: Part[],
  extra: Record<string, unknown>,
): unknown {
  const meta = call.meta ?? {}
  const base: Record<string, unknown> = { ...extra, type }
  if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
    if (meta.noCallId !== true) base.call_id = call.callId
    if (type === 'function_call') return { ...base, name: call.name, arguments: call.argsRaw }
    if (type === 'custom_tool_call') return { ...base, name: call.name, input: call.argsRaw }
    return { ...base, action: call.args ?? parseOr(call.argsRaw, {}) }
  }
  if (meta.clientSide === true) base.call_id = call.callId
  if (meta.noName !== true) base.name = call.name
  const args = obj(call.args ?? parseOr(call.argsRaw, {}))
  const image = g.find((p) => p.kind === 'image' && p.meta?.field === 'result')
  return {
    ...base,
    ...args,
    ...(image?.kind === 'image' && image.data !== undefined ? { result: image.data } : {}),
  }
}

function parseOr(raw: string, fallback: unknown): unknown {
  try {
    return parseJson(raw) as unknown
  } catch {
    return fallback
  }
}

/** A call a strategy created (no item meta): canonical call flavour → item type. */
function itemTypeOf(callType: string | undefined): string {
  if (callType === undefined || callType === 'function' || callType === 'function_call')
    return 'function_call'
  if (callType === 'custom') return 'custom_tool_call'
  return callType
}
