import type { Part, ResultContent } from '../../engine/model.ts'
import {
  arr,
  base64DecodedBytes,
  callFromObjectArgs,
  isObject,
  parseDataUrl,
  str,
} from '../util.ts'

type Obj = Record<string, unknown>

export function without(obj: Obj, keys: readonly string[]): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v
  return out
}

function image(block: Obj): Part {
  const src = isObject(block.source) ? block.source : undefined
  const imageUrl = isObject(block.image_url) ? str(block.image_url.url) : str(block.image_url)
  const url = imageUrl ?? str(block.url) ?? (src ? str(src.url) : undefined)
  const b64 = str(block.base64) ?? str(block.data) ?? (src ? str(src.data) : undefined)
  const dataUrl = url ? parseDataUrl(url) : null
  const data = b64 ?? dataUrl?.data
  const mediaType =
    str(block.mime_type) ?? (src ? str(src.media_type) : undefined) ?? dataUrl?.mediaType
  return {
    kind: 'image',
    ...(mediaType ? { mediaType } : {}),
    ...(data !== undefined ? { data, bytes: base64DecodedBytes(data) } : { url, bytes: 0 }),
    meta: { block },
  }
}

/** One content block → canonical part (text, reasoning, tool call, image, result, opaque). */
export function blockPart(block: unknown): Part {
  if (typeof block === 'string') return { kind: 'text', text: block, meta: { block: 'string' } }
  if (!isObject(block)) {
    return {
      kind: 'opaque',
      opaque: { label: 'content block', bytes: JSON.stringify(block ?? null).length },
      raw: block,
    }
  }
  const meta = { block, origin: 'content' }
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: str(block.text) ?? '', meta }
    case 'thinking': {
      const sig = str(block.signature)
      return {
        kind: 'reasoning',
        text: str(block.thinking) ?? '',
        ...(sig ? { opaque: { label: 'thinking signature', bytes: sig.length } } : {}),
        meta,
      }
    }
    case 'redacted_thinking': {
      const data = str(block.data) ?? ''
      return {
        kind: 'reasoning',
        text: '',
        redacted: true,
        opaque: { label: 'redacted thinking', bytes: data.length },
        meta,
      }
    }
    case 'reasoning': {
      const summary = arr(block.summary)
        .map((s) => (isObject(s) ? (str(s.text) ?? '') : ''))
        .join('\n')
      const enc = str(block.encrypted_content)
      const full = str(block.reasoning)
      return {
        kind: 'reasoning',
        text: full ?? summary,
        ...(full === undefined && summary !== '' ? { textKind: 'summary' as const } : {}),
        ...(enc ? { opaque: { label: 'encrypted reasoning', bytes: enc.length } } : {}),
        meta,
      }
    }
    case 'tool_use':
    case 'tool_call':
      return callFromObjectArgs(
        {
          callId: typeof block.id === 'string' ? block.id : null,
          name: str(block.name) ?? '',
          meta,
        },
        block.type === 'tool_use' ? block.input : block.args,
      )
    case 'image':
    case 'image_url':
      return image(block)
    case 'tool_result': {
      const content = blockContent(block.content)
      return {
        kind: 'tool_result',
        callId: typeof block.tool_use_id === 'string' ? block.tool_use_id : null,
        content,
        isError: block.is_error === true,
        meta,
      }
    }
    default:
      return {
        kind: 'opaque',
        opaque: { label: `${String(block.type)} block`, bytes: JSON.stringify(block).length },
        raw: block,
        meta,
      }
  }
}

/** Content of a tool result: text, images, else opaque. */
export function blockContent(content: unknown): ResultContent[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }]
  if (content === undefined || content === null) return []
  if (!Array.isArray(content)) return [{ kind: 'text', text: JSON.stringify(content) }]
  return content.map(blockPart).map((p): ResultContent =>
    p.kind === 'text' || p.kind === 'image' || p.kind === 'file' || p.kind === 'opaque'
      ? p
      : {
          kind: 'opaque',
          opaque: { label: `${p.kind} in tool result`, bytes: 0 },
          raw: p.meta?.block,
        },
  )
}
