import type { Part, Role } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { reasoningTexts } from './items.ts'
import { parseJson } from '../../engine/json.ts'

type Item = Record<string, unknown>

/**
 * Rebuild the Responses item a rollout line held from the parts it produced. The original item
 * is the starting point (key order, `phase`, `status`, `namespace`… survive); only the canonical
 * fields are overwritten. Returns undefined when the parts no longer fit the item's type.
 */
export function rebuildItem(orig: Item, parts: readonly Part[], role: Role): Item | undefined {
  const b: Item = { ...orig }
  const part = parts[0]
  switch (orig.type) {
    case 'message': {
      const content = parts.map(asContentPart)
      if (content.some((p) => p === undefined)) return undefined
      const prev = orig.content
      const only = parts[0]
      if (typeof prev === 'string' && parts.length === 1 && only?.kind === 'text')
        b.content = only.text
      else {
        const prevArr = Array.isArray(prev) ? prev : []
        b.content = content.map((p, i) => (p ? contentBlock(p, prevArr[i], role) : null))
      }
      return b
    }
    case 'reasoning': {
      if (parts.length !== 1 || part?.kind !== 'reasoning') return undefined
      const before = reasoningTexts(orig)
      if (part.text !== before.text) {
        if (before.textKind === 'full') b.content = [{ type: 'reasoning_text', text: part.text }]
        else b.summary = part.text ? [{ type: 'summary_text', text: part.text }] : []
      }
      if (part.opaque?.data !== undefined) b.encrypted_content = part.opaque.data
      else delete b.encrypted_content
      return b
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call': {
      if (parts.length !== 1 || part?.kind !== 'tool_call') return undefined
      return {
        ...b,
        ...callFields(orig.type, part.callId, part.name, part.argsRaw, part.args, orig),
      }
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
    case 'tool_search_output': {
      if (parts.length !== 1 || part?.kind !== 'tool_result') return undefined
      if (part.callId !== null) b.call_id = part.callId
      else delete b.call_id
      b.output = outputOf(part.content, orig.output)
      return b
    }
    default:
      if (parts.length !== 1 || part?.kind !== 'opaque') return undefined
      return isObject(part.raw) ? part.raw : b
  }
}

/**
 * Items for parts that have no source line left (added by a compaction, or the message changed
 * shape): consecutive content parts share one `message` item, everything else gets its own.
 * `callTypes` maps call ids to their flavour so a result is written as the matching output type.
 */
export function freshItems(
  parts: readonly Part[],
  role: Role,
  callTypes: ReadonlyMap<string, string>,
): Item[] {
  const items: Item[] = []
  let content: unknown[] | undefined
  const wireRole = role === 'assistant' ? 'assistant' : role === 'system' ? 'developer' : 'user'
  for (const p of parts) {
    const inContent = asContentPart(p)
    if (inContent) {
      if (!content) {
        content = []
        items.push({ type: 'message', role: wireRole, content })
      }
      content.push(contentBlock(inContent, undefined, role))
      continue
    }
    content = undefined
    switch (p.kind) {
      case 'reasoning':
        items.push({
          type: 'reasoning',
          summary: p.text ? [{ type: 'summary_text', text: p.text }] : [],
          content: null,
          ...(p.opaque?.data !== undefined ? { encrypted_content: p.opaque.data } : {}),
        })
        break
      case 'tool_call': {
        const type =
          p.callType === 'custom'
            ? 'custom_tool_call'
            : p.callType === 'local_shell'
              ? 'local_shell_call'
              : p.callType === 'web_search'
                ? 'web_search_call'
                : 'function_call'
        items.push({ type, ...callFields(type, p.callId, p.name, p.argsRaw, p.args) })
        break
      }
      case 'tool_result': {
        const flavour = p.callId !== null ? callTypes.get(p.callId) : undefined
        items.push({
          type: flavour === 'custom' ? 'custom_tool_call_output' : 'function_call_output',
          ...(p.callId !== null ? { call_id: p.callId } : {}),
          output: outputOf(p.content, undefined),
        })
        break
      }
      case 'opaque':
        if (isObject(p.raw) && typeof p.raw.type === 'string') items.push(p.raw)
        break
    }
  }
  return items
}

type ContentPart = Extract<Part, { kind: 'text' | 'image' | 'file' | 'opaque' }>

/** Parts that live inside a message's `content` (an opaque whole item does not). */
function asContentPart(p: Part): ContentPart | undefined {
  if (p.kind === 'text' || p.kind === 'image' || p.kind === 'file') return p
  return p.kind === 'opaque' && (p.meta?.field === 'content' || !isItem(p.raw)) ? p : undefined
}

/** An opaque part that stands for a whole item (compaction, image generation), not a content block. */
function isItem(raw: unknown): boolean {
  return (
    isObject(raw) &&
    typeof raw.type === 'string' &&
    !/^(input|output)_/.test(raw.type) &&
    raw.type !== 'refusal'
  )
}

function callFields(
  type: unknown,
  callId: string | null,
  name: string,
  argsRaw: string,
  args: unknown,
  orig?: Item,
): Item {
  const id = callId !== null ? callId : undefined
  switch (type) {
    case 'custom_tool_call':
      return { call_id: id, name, input: argsRaw }
    case 'local_shell_call':
      return { call_id: id, action: args ?? parseOr(argsRaw) }
    case 'web_search_call':
      return { id, action: args ?? parseOr(argsRaw) }
    default:
      return {
        name,
        arguments:
          orig && typeof orig.arguments !== 'string' ? (args ?? parseOr(argsRaw)) : argsRaw,
        call_id: id,
      }
  }
}

function parseOr(raw: string): unknown {
  try {
    return parseJson(raw) as unknown
  } catch {
    return {}
  }
}

function outputOf(content: readonly Part[], prev: unknown): unknown {
  if (!Array.isArray(prev) && content.every((c) => c.kind === 'text')) {
    return content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
  }
  const prevArr = Array.isArray(prev) ? prev : []
  const blocks: unknown[] = []
  content.forEach((c, i) => {
    const part = asContentPart(c)
    if (part) blocks.push(contentBlock(part, prevArr[i], 'tool'))
  })
  return blocks
}

function contentBlock(p: ContentPart, orig: unknown, role: Role): unknown {
  const base = isObject(orig) ? orig : undefined
  switch (p.kind) {
    case 'text': {
      if (base && base.type === 'refusal') return { ...base, refusal: p.text }
      if (base && typeof base.text === 'string') return { ...base, text: p.text }
      return { type: role === 'assistant' ? 'output_text' : 'input_text', text: p.text }
    }
    case 'image': {
      const url =
        p.data !== undefined ? `data:${p.mediaType ?? 'image/png'};base64,${p.data}` : p.url
      if (base && base.type === 'input_image' && str(base.image_url) === url) return base
      return {
        type: 'input_image',
        ...(url !== undefined ? { image_url: url } : {}),
        ...(p.fileId !== undefined ? { file_id: p.fileId } : {}),
        ...(p.detail !== undefined ? { detail: p.detail } : {}),
      }
    }
    case 'file': {
      if (base && base.type === 'input_file') return base
      return {
        type: 'input_file',
        ...(p.filename !== undefined ? { filename: p.filename } : {}),
        ...(p.data !== undefined
          ? { file_data: `data:${p.mediaType ?? 'application/octet-stream'};base64,${p.data}` }
          : {}),
        ...(p.fileId !== undefined ? { file_id: p.fileId } : {}),
      }
    }
    case 'opaque':
      // Written back verbatim, even a malformed `null` block (it was in the file).
      return p.raw !== undefined ? p.raw : (base ?? { type: 'input_text', text: '' })
  }
}
