import type {
  Conversation,
  FilePart,
  ImagePart,
  Message,
  Part,
  ResultContent,
  TextPart,
  ToolResultPart,
} from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { parseJson } from '../../engine/json.ts'

type Json = Record<string, unknown>

function metaObj(
  part: { meta?: Readonly<Record<string, unknown>> },
  key: string,
): Json | undefined {
  const v = part.meta?.[key]
  return isObject(v) ? v : undefined
}

function ex(part: { meta?: Readonly<Record<string, unknown>> }): Json {
  return metaObj(part, 'extras') ?? {}
}

function imageBlock(p: ImagePart): Json {
  const shell = metaObj(p, 'source')
  let source: Json
  if (p.data !== undefined)
    source = { ...(shell ?? { type: 'base64' }), media_type: p.mediaType, data: p.data }
  else if (p.url !== undefined) source = { ...(shell ?? { type: 'url' }), url: p.url }
  else if (p.fileId !== undefined) source = { ...(shell ?? { type: 'file' }), file_id: p.fileId }
  else source = shell ?? {}
  return { type: 'image', source, ...ex(p) }
}

function documentBlock(p: FilePart): Json {
  const shell = metaObj(p, 'source')
  let source: Json
  if (p.data !== undefined)
    source = { ...(shell ?? { type: 'base64', media_type: p.mediaType }), data: p.data }
  else if (p.url !== undefined) source = { ...(shell ?? { type: 'url' }), url: p.url }
  else if (p.fileId !== undefined) source = { ...(shell ?? { type: 'file' }), file_id: p.fileId }
  else source = shell ?? {}
  return { type: 'document', source, ...ex(p) }
}

function textBlock(p: TextPart): Json {
  return { type: 'text', text: p.text, ...ex(p) }
}

function resultBlocks(content: readonly ResultContent[]): Json[] {
  const out: Json[] = []
  for (const c of content) {
    if (c.kind === 'text') out.push(textBlock(c))
    else if (c.kind === 'image') out.push(imageBlock(c))
    else if (c.kind === 'file') out.push(documentBlock(c))
    else if (isObject(c.raw)) out.push(c.raw)
  }
  return out
}

/** Write `content` back in the shape it had (string, blocks, missing, JSON object). */
function resultContent(p: ToolResultPart): unknown {
  const shape = p.meta?.shape
  const onlyText = p.content.every((c) => c.kind === 'text')
  const joined = p.content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
  if (shape === 'missing' && p.content.length === 0) return undefined
  if (shape === 'string' && onlyText) return joined
  if (shape === 'json' && onlyText) {
    try {
      return parseJson(joined) as unknown
    } catch {
      return joined
    }
  }
  return resultBlocks(p.content)
}

function resultBlock(p: ToolResultPart): Json {
  const block: Json = { type: str(p.meta?.blockType) ?? 'tool_result' }
  if (p.callId !== null) block.tool_use_id = p.callId
  const content = resultContent(p)
  if (content !== undefined) block.content = content
  const errKey = p.meta?.isErrorKey
  if (errKey !== undefined || p.isError) block.is_error = p.isError
  return { ...block, ...ex(p) }
}

/** One canonical part → an Anthropic content block (undefined: nothing to write). */
export function blockFromPart(p: Part): Json | null | undefined {
  switch (p.kind) {
    case 'text':
      if (p.meta?.blockType === 'compaction') {
        return {
          type: 'compaction',
          content: 'content' in (p.meta ?? {}) ? p.meta.content : p.text,
          ...ex(p),
        }
      }
      return textBlock(p)
    case 'reasoning':
      if (p.redacted) return { type: 'redacted_thinking', data: p.opaque?.data ?? '', ...ex(p) }
      return {
        type: 'thinking',
        thinking: p.text,
        ...(p.opaque?.data !== undefined ? { signature: p.opaque.data } : {}),
        ...ex(p),
      }
    case 'tool_call': {
      const block: Json = { type: p.callType ?? (p.serverSide ? 'server_tool_use' : 'tool_use') }
      if (p.callId !== null) block.id = p.callId
      block.name = p.name
      // Unparsable (cut-off) arguments stay the raw string so a re-import sees the same bytes.
      block.input = p.args !== undefined ? p.args : p.argsError !== undefined ? p.argsRaw : {}
      return { ...block, ...ex(p) }
    }
    case 'tool_result':
      return resultBlock(p)
    case 'image':
      return imageBlock(p)
    case 'file':
      return documentBlock(p)
    case 'opaque':
      // Written back verbatim, even a malformed `null` block (it was in the file).
      return p.raw === undefined ? undefined : (p.raw as Json | null)
  }
}

/** A canonical message → `{role, content}` (content a string when the source used one). */
export function messageOut(m: Message): Json {
  const role = m.role === 'tool' ? 'user' : m.role
  const only = m.parts[0]
  const asString =
    m.source?.contentShape === 'string' &&
    m.parts.length === 1 &&
    only?.kind === 'text' &&
    !only.meta
  const content = asString
    ? only.text
    : m.parts.map(blockFromPart).filter((b): b is Json | null => b !== undefined)
  const extras = isObject(m.source?.extras) ? m.source.extras : {}
  return { role, content, ...extras }
}

function systemOut(c: Conversation): unknown {
  if (c.system.length === 0) return undefined
  const first = c.system[0]
  if (c.source?.systemShape === 'string' && c.system.length === 1 && first && !first.meta)
    return first.text
  return c.system.map(textBlock)
}

function toolsOut(c: Conversation): unknown[] {
  return c.tools.map((t) => {
    try {
      return parseJson(t.raw) as unknown
    } catch {
      return { name: t.name, description: t.description, input_schema: { type: 'object' } }
    }
  })
}

function responseOut(m: Message): Json {
  const envelope = isObject(m.source?.response)
    ? m.source.response
    : { type: 'message', role: 'assistant' }
  const content = messageOut(m).content
  return {
    ...envelope,
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
  }
}

/**
 * Write the conversation back as it came: a request body (system/tools/envelope restored, key
 * order kept), a bare messages array, a lone response, or — when the last turn came from a
 * captured response — a `[{request, response}]` exchange list so its usage survives.
 */
export function serializeAnthropic(c: Conversation): string {
  const shape = str(c.source?.shape) ?? 'request'
  const last = c.messages[c.messages.length - 1]
  const response = last?.source?.fromResponse ? last : undefined
  if (shape === 'response' && response && c.messages.length === 1) {
    return JSON.stringify(responseOut(response), null, 2)
  }
  const history = response && shape === 'exchange' ? c.messages.slice(0, -1) : c.messages
  const messages = history.map(messageOut)
  if (shape === 'messages') return JSON.stringify(messages, null, 2)
  const envelope = isObject(c.source?.envelope)
    ? c.source.envelope
    : { model: c.meta.model, max_tokens: 4096 }
  const fields: Json = { ...envelope, messages }
  const system = systemOut(c)
  if (system !== undefined) fields.system = system
  if (c.tools.length > 0) fields.tools = toolsOut(c)
  const order = Array.isArray(c.source?.keyOrder)
    ? c.source.keyOrder.filter((k) => typeof k === 'string')
    : []
  const body: Json = {}
  for (const k of order) if (k in fields) body[k] = fields[k]
  for (const [k, v] of Object.entries(fields)) if (!(k in body)) body[k] = v
  if (response && shape === 'exchange') {
    const uri = str(c.source?.url) ?? 'https://api.anthropic.com/v1/messages'
    const exchange = [
      {
        request: { method: 'POST', uri, body },
        response: { status: 200, body: responseOut(response) },
      },
    ]
    return JSON.stringify(exchange, null, 2)
  }
  return JSON.stringify(body, null, 2)
}
