import type {
  FilePart,
  ImagePart,
  OpaquePart,
  Part,
  ResultContent,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../engine/model.ts'
import {
  base64DecodedBytes,
  callFromObjectArgs,
  callFromRawArgs,
  describe,
  isObject,
  str,
  utf8Bytes,
} from '../util.ts'
import type { JsonPath } from '../locate.ts'

/** Reports a recoverable problem at a JSON path (the caller turns it into a located warning). */
export type Warn = (path: JsonPath, message: string) => void

/**
 * Keys of a block that the canonical part does not model (cache_control, citations, title…),
 * kept in `meta.extras` so the serializer writes the block back unchanged.
 */
export function extras(
  block: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(block)) {
    if (known.includes(key)) continue
    out ??= {}
    out[key] = block[key]
  }
  return out
}

/** `meta` only when there is something to keep: parts stay small for the common case. */
function meta(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  let any = false
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue
    out[k] = v
    any = true
  }
  return any ? out : undefined
}

function withMeta<T extends object>(part: T, m: Record<string, unknown> | undefined): T {
  return m ? { ...part, meta: m } : part
}

/** Any block we cannot interpret: counted by size, written back verbatim. */
function opaqueBlock(block: unknown, label: string): OpaquePart {
  return {
    kind: 'opaque',
    opaque: { label, bytes: utf8Bytes(JSON.stringify(block) ?? '') },
    raw: block,
  }
}

/** The source object minus its (large) payload: the serializer puts the payload back. */
function sourceShell(source: Record<string, unknown>): Record<string, unknown> {
  const { data: _data, ...rest } = source
  return rest
}

export function imageFromBlock(block: Record<string, unknown>): ImagePart {
  const source = isObject(block.source) ? block.source : {}
  const m = meta({ source: sourceShell(source), extras: extras(block, ['type', 'source']) })
  const mediaType = str(source.media_type)
  const type = str(source.type)
  if (type === 'base64') {
    const data = str(source.data) ?? ''
    return withMeta({ kind: 'image', mediaType, data, bytes: base64DecodedBytes(data) }, m)
  }
  if (type === 'url')
    return withMeta({ kind: 'image', mediaType, url: str(source.url), bytes: 0 }, m)
  return withMeta({ kind: 'image', mediaType, fileId: str(source.file_id), bytes: 0 }, m)
}

export function fileFromBlock(block: Record<string, unknown>): FilePart {
  const source = isObject(block.source) ? block.source : {}
  const m = meta({ source: sourceShell(source), extras: extras(block, ['type', 'source']) })
  const base = {
    kind: 'file' as const,
    mediaType: str(source.media_type),
    filename: str(block.title),
  }
  const data = str(source.data)
  switch (str(source.type)) {
    case 'base64':
      return withMeta({ ...base, data: data ?? '', bytes: base64DecodedBytes(data ?? '') }, m)
    case 'text':
      return withMeta({ ...base, data: data ?? '', bytes: utf8Bytes(data ?? '') }, m)
    case 'url':
      return withMeta({ ...base, url: str(source.url), bytes: 0 }, m)
    case 'file':
      return withMeta({ ...base, fileId: str(source.file_id), bytes: 0 }, m)
    default:
      // `content` documents carry blocks inside the source shell; count them.
      return withMeta({ ...base, bytes: utf8Bytes(JSON.stringify(source) ?? '') }, m)
  }
}

/** How a tool result's `content` was written, so the serializer writes the same shape. */
export type ContentShape = 'missing' | 'string' | 'array' | 'json'

/** `tool_result.content` (string | blocks | missing) and server-tool result payloads. */
export function resultContent(
  content: unknown,
  path: JsonPath,
  warn: Warn,
): { content: ResultContent[]; shape: ContentShape } {
  if (content === undefined) return { content: [], shape: 'missing' }
  if (typeof content === 'string')
    return { content: [{ kind: 'text', text: content }], shape: 'string' }
  if (!Array.isArray(content)) {
    // Server tool errors / code-execution results are objects: kept as their JSON text.
    return {
      content: [{ kind: 'text', text: JSON.stringify(content) ?? 'null', meta: { json: true } }],
      shape: 'json',
    }
  }
  const out: ResultContent[] = []
  content.forEach((item, i) => {
    if (!isObject(item)) {
      warn([...path, i], `expected a content block object, got ${describe(item)}; kept as is`)
      out.push(opaqueBlock(item, 'invalid block'))
      return
    }
    const type = str(item.type)
    if (type === 'text' && typeof item.text === 'string') {
      out.push(
        withMeta<TextPart>(
          { kind: 'text', text: item.text },
          meta({ extras: extras(item, ['type', 'text']) }),
        ),
      )
    } else if (type === 'image') out.push(imageFromBlock(item))
    else if (type === 'document') out.push(fileFromBlock(item))
    else out.push(opaqueBlock(item, type ?? 'block'))
  })
  return { content: out, shape: 'array' }
}

const TOOL_USE_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use'])

/** A result block of a provider-executed tool (web_search_tool_result, mcp_tool_result…). */
function isServerResultType(type: string): boolean {
  return type !== 'tool_result' && (type.endsWith('_tool_result') || type === 'mcp_tool_result')
}

function toolCall(
  block: Record<string, unknown>,
  type: string,
  path: JsonPath,
  warn: Warn,
): ToolCallPart {
  const name = str(block.name)
  if (name === undefined) warn(path, `expected \`name\` (a string) on the ${type} block`)
  const callId = typeof block.id === 'string' ? block.id : null
  const base = {
    callId,
    name: name ?? '',
    ...(type === 'tool_use' ? {} : { serverSide: true }),
    callType: type,
  }
  const m = meta({ extras: extras(block, ['type', 'id', 'name', 'input']) })
  // A string `input` is a stream cut off mid-arguments (kept raw by us, or by a proxy).
  const part =
    typeof block.input === 'string'
      ? callFromRawArgs(base, block.input)
      : callFromObjectArgs(base, block.input)
  return withMeta(part, m)
}

function toolResult(
  block: Record<string, unknown>,
  type: string,
  path: JsonPath,
  warn: Warn,
): ToolResultPart {
  const { content, shape } = resultContent(block.content, [...path, 'content'], warn)
  const payload = isObject(block.content) ? str(block.content.type) : undefined
  const isError = block.is_error === true || (payload !== undefined && payload.endsWith('_error'))
  const m = meta({
    blockType: type === 'tool_result' ? undefined : type,
    shape,
    isErrorKey: 'is_error' in block ? block.is_error : undefined,
    extras: extras(block, ['type', 'tool_use_id', 'content', 'is_error']),
  })
  const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : null
  return withMeta<ToolResultPart>({ kind: 'tool_result', callId, content, isError }, m)
}

/** One Anthropic content block → canonical part. Never throws; odd blocks become opaque. */
export function partFromBlock(block: unknown, path: JsonPath, warn: Warn): Part {
  if (!isObject(block)) {
    warn(path, `expected a content block object with \`type\`, got ${describe(block)}; kept as is`)
    return opaqueBlock(block, 'invalid block')
  }
  const type = str(block.type)
  if (type === undefined) {
    warn(path, 'expected a content block with a string `type`; kept as an opaque block')
    return opaqueBlock(block, 'untyped block')
  }
  switch (type) {
    case 'text':
      if (typeof block.text !== 'string') break
      return withMeta<TextPart>(
        { kind: 'text', text: block.text },
        meta({ extras: extras(block, ['type', 'text']) }),
      )
    case 'compaction': {
      // Server-side compaction summary: the text the model sees instead of the older history.
      const content = block.content
      return {
        kind: 'text',
        text: typeof content === 'string' ? content : '',
        meta: {
          blockType: 'compaction',
          ...(typeof content === 'string' ? {} : { content }),
          ...(extras(block, ['type', 'content'])
            ? { extras: extras(block, ['type', 'content']) }
            : {}),
        },
      }
    }
    case 'thinking': {
      const signature = str(block.signature)
      return withMeta(
        {
          kind: 'reasoning' as const,
          text: str(block.thinking) ?? '',
          textKind: 'full' as const,
          ...(signature !== undefined
            ? {
                opaque: {
                  label: 'thinking signature',
                  bytes: utf8Bytes(signature),
                  data: signature,
                },
              }
            : {}),
        },
        meta({ extras: extras(block, ['type', 'thinking', 'signature']) }),
      )
    }
    case 'redacted_thinking': {
      const data = str(block.data) ?? ''
      return withMeta(
        {
          kind: 'reasoning' as const,
          text: '',
          redacted: true,
          opaque: { label: 'redacted thinking', bytes: utf8Bytes(data), data },
        },
        meta({ extras: extras(block, ['type', 'data']) }),
      )
    }
    case 'image':
      return imageFromBlock(block)
    case 'document':
      return fileFromBlock(block)
    case 'tool_result':
      return toolResult(block, type, path, warn)
    default:
      if (TOOL_USE_TYPES.has(type)) return toolCall(block, type, path, warn)
      if (isServerResultType(type)) return toolResult(block, type, path, warn)
  }
  return opaqueBlock(block, `${type} block`)
}
