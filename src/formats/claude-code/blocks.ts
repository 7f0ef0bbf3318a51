import type {
  FilePart,
  ImagePart,
  OpaquePart,
  Part,
  ResultContent,
  ToolResultPart,
} from '../../engine/model.ts'
import { base64DecodedBytes, callFromObjectArgs, isObject, str, utf8Bytes } from '../util.ts'
import { parseJson } from '../../engine/json.ts'
import { newToolResult } from '../shapes.ts'

type Block = Record<string, unknown>

/**
 * Convert one Anthropic content block (as Claude Code writes it into `message.content`) to a
 * canonical part. Unknown blocks become opaque parts carrying the block, so nothing is lost.
 */
export function blockToPart(block: unknown): Part {
  if (typeof block === 'string') return { kind: 'text', text: block }
  if (!isObject(block)) return opaquePart(block, 'unknown content')
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: str(block.text) ?? '' }
    case 'thinking': {
      const signature = str(block.signature)
      return {
        kind: 'reasoning',
        text: str(block.thinking) ?? '',
        textKind: 'full',
        ...(signature !== undefined
          ? { opaque: { label: 'thinking signature', bytes: signature.length, data: signature } }
          : {}),
      }
    }
    case 'redacted_thinking': {
      const data = str(block.data) ?? ''
      return {
        kind: 'reasoning',
        text: '',
        redacted: true,
        opaque: { label: 'redacted thinking', bytes: data.length, data },
      }
    }
    case 'tool_use':
      return callFromObjectArgs(
        { callId: str(block.id) ?? null, name: str(block.name) ?? '' },
        block.input,
      )
    case 'server_tool_use':
    case 'mcp_tool_use':
      return callFromObjectArgs(
        {
          callId: str(block.id) ?? null,
          name: str(block.name) ?? '',
          serverSide: true,
          callType: block.type,
        },
        block.input,
      )
    case 'tool_result':
      return toolResultPart(block)
    case 'image':
      return imagePart(block)
    case 'document':
      return filePart(block)
    default:
      return opaquePart(block, `${String(block.type)} block`)
  }
}

function toolResultPart(block: Block): ToolResultPart {
  const content = block.content
  let parts: ResultContent[]
  if (typeof content === 'string') parts = [{ kind: 'text', text: content }]
  else if (Array.isArray(content)) parts = content.map(resultContent)
  else parts = []
  return newToolResult({
    callId: str(block.tool_use_id) ?? null,
    content: parts,
    isError: block.is_error === true,
  })
}

function resultContent(block: unknown): ResultContent {
  const part = blockToPart(block)
  if (
    part.kind === 'text' ||
    part.kind === 'image' ||
    part.kind === 'file' ||
    part.kind === 'opaque'
  ) {
    return part
  }
  return opaquePart(block, 'nested block')
}

function imagePart(block: Block): ImagePart {
  const source = isObject(block.source) ? block.source : {}
  const data = source.type === 'base64' ? str(source.data) : undefined
  return {
    kind: 'image',
    mediaType: str(source.media_type),
    ...(data !== undefined ? { data } : {}),
    ...(str(source.url) !== undefined ? { url: str(source.url) } : {}),
    ...(str(source.file_id) !== undefined ? { fileId: str(source.file_id) } : {}),
    bytes: data !== undefined ? base64DecodedBytes(data) : 0,
  }
}

function filePart(block: Block): FilePart {
  const source = isObject(block.source) ? block.source : {}
  const data = str(source.data)
  const bytes =
    data === undefined ? 0 : source.type === 'base64' ? base64DecodedBytes(data) : utf8Bytes(data)
  return {
    kind: 'file',
    mediaType: str(source.media_type),
    filename: str(block.title),
    ...(data !== undefined ? { data } : {}),
    ...(str(source.url) !== undefined ? { url: str(source.url) } : {}),
    ...(str(source.file_id) !== undefined ? { fileId: str(source.file_id) } : {}),
    bytes,
  }
}

function opaquePart(raw: unknown, label: string): OpaquePart {
  return { kind: 'opaque', opaque: { label, bytes: utf8Bytes(JSON.stringify(raw) ?? '') }, raw }
}

/** Parse a JSON argument string back to an object for `tool_use.input` (never throws). */
function inputOf(argsRaw: string, args: unknown): unknown {
  if (args !== undefined) return args
  try {
    return parseJson(argsRaw) as unknown
  } catch {
    return {}
  }
}

/**
 * Write a canonical part back as an Anthropic block. `orig` is the block the part was parsed
 * from, when it still exists: its extra fields (citations, cache_control…) are kept and only the
 * canonical fields are overwritten, so an untouched part is written back as it was.
 */
export function partToBlock(part: Part, orig?: unknown): unknown {
  const base = isObject(orig) ? orig : undefined
  // Start from the original block when it is of the same type (keeps its key order and extras).
  const from = (type: string, ...alts: string[]): Block =>
    base && [type, ...alts].includes(String(base.type)) ? { ...base } : { type }
  switch (part.kind) {
    case 'text': {
      const b = from('text')
      b.text = part.text
      return b
    }
    case 'reasoning': {
      if (part.redacted) {
        const b = from('redacted_thinking')
        b.data = part.opaque?.data ?? ''
        return b
      }
      const b = from('thinking')
      b.thinking = part.text
      if (part.opaque?.data !== undefined) b.signature = part.opaque.data
      else delete b.signature
      return b
    }
    case 'tool_call': {
      const b = from(part.serverSide ? (part.callType ?? 'server_tool_use') : 'tool_use')
      // A malformed id (a number, an object) is not an id to us, but it stays in the file.
      if (part.callId !== null) b.id = part.callId
      else if (typeof b.id === 'string') delete b.id
      b.name = part.name
      b.input = inputOf(part.argsRaw, part.args)
      return b
    }
    case 'tool_result': {
      const b = from('tool_result')
      const prevContent = b.content
      if (part.callId !== null) b.tool_use_id = part.callId
      else if (typeof b.tool_use_id === 'string') delete b.tool_use_id
      if (part.content.length === 0 && base && prevContent === undefined) delete b.content
      else if (part.content.every((c) => c.kind === 'text') && !Array.isArray(prevContent)) {
        b.content = part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
      } else {
        const prevArr = Array.isArray(prevContent) ? prevContent : []
        b.content = part.content.map((c, i) => partToBlock(c, prevArr[i]))
      }
      if (part.isError || b.is_error !== undefined) b.is_error = part.isError
      return b
    }
    case 'image':
    case 'file': {
      const b = from(part.kind === 'image' ? 'image' : 'document')
      const prev = isObject(b.source) ? b.source : undefined
      if (prev && prev.data === part.data && prev.url === part.url) return b
      b.source =
        part.data !== undefined
          ? {
              type: 'base64',
              media_type:
                part.mediaType ?? (part.kind === 'image' ? 'image/png' : 'application/pdf'),
              data: part.data,
            }
          : part.url !== undefined
            ? { type: 'url', url: part.url }
            : { type: 'file', file_id: part.fileId ?? '' }
      if (part.kind === 'file' && part.filename !== undefined) b.title = part.filename
      return b
    }
    case 'opaque':
      // Written back verbatim, even a malformed `null` block (it was in the file).
      return part.raw !== undefined ? part.raw : (base ?? { type: 'text', text: '' })
  }
}
