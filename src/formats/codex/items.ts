import type {
  OpaquePart,
  Part,
  ReasoningPart,
  ResultContent,
  ToolResultPart,
} from '../../engine/model.ts'
import { newToolResult } from '../shapes.ts'
import {
  base64DecodedBytes,
  callFromObjectArgs,
  callFromRawArgs,
  isObject,
  parseDataUrl,
  str,
  utf8Bytes,
} from '../util.ts'

type Item = Record<string, unknown>

/** Items the model produces in one call: consecutive ones form one assistant message. */
export const MODEL_OUTPUT_ITEMS: ReadonlySet<string> = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'image_generation_call',
  'tool_search_call',
])

/** Tool outputs: each becomes a `role:'tool'` message. */
export const TOOL_OUTPUT_ITEMS: ReadonlySet<string> = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'tool_search_output',
])

/**
 * Canonical parts of one Responses item as Codex records it. Returns null for items that are not
 * part of the model context (ghost snapshots, unknown types): the caller keeps those lines as is.
 */
export function itemToParts(item: Item): Part[] | null {
  switch (item.type) {
    case 'message':
      return messageParts(item.content)
    case 'reasoning':
      return [reasoningPart(item)]
    case 'function_call': {
      const base = {
        callId: str(item.call_id) ?? null,
        name: str(item.name) ?? '',
        callType: 'function',
      }
      return [
        typeof item.arguments === 'string'
          ? callFromRawArgs(base, item.arguments)
          : callFromObjectArgs(base, item.arguments),
      ]
    }
    case 'custom_tool_call':
      // Freeform input (an apply_patch body), not JSON: kept raw, never parsed.
      return [
        {
          kind: 'tool_call',
          callId: str(item.call_id) ?? null,
          name: str(item.name) ?? '',
          argsRaw: str(item.input) ?? '',
          callType: 'custom',
        },
      ]
    case 'local_shell_call':
      return [
        callFromObjectArgs(
          {
            callId: str(item.call_id) ?? str(item.id) ?? null,
            name: 'local_shell',
            callType: 'local_shell',
          },
          item.action,
        ),
      ]
    case 'web_search_call':
      return [
        callFromObjectArgs(
          {
            callId: str(item.id) ?? null,
            name: 'web_search',
            serverSide: true,
            callType: 'web_search',
          },
          item.action,
        ),
      ]
    case 'image_generation_call':
    case 'tool_search_call':
    case 'compaction':
    case 'compaction_summary':
      return [opaqueItem(item)]
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
    case 'tool_search_output':
      return [toolResultPart(item)]
    default:
      return null
  }
}

function messageParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }]
  if (!Array.isArray(content)) return []
  return content.map(contentPart)
}

function contentPart(c: unknown): ResultContent {
  if (!isObject(c))
    return {
      kind: 'opaque',
      opaque: { label: 'unknown content', bytes: utf8Bytes(JSON.stringify(c) ?? '') },
      raw: c,
      meta: { field: 'content' },
    }
  switch (c.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { kind: 'text', text: str(c.text) ?? '' }
    case 'refusal':
      return { kind: 'text', text: str(c.refusal) ?? '', meta: { refusal: true } }
    case 'input_image': {
      const url = str(c.image_url)
      const data = url ? parseDataUrl(url) : null
      return {
        kind: 'image',
        ...(data
          ? { mediaType: data.mediaType, data: data.data }
          : url !== undefined
            ? { url }
            : {}),
        ...(str(c.file_id) !== undefined ? { fileId: str(c.file_id) } : {}),
        ...(str(c.detail) !== undefined ? { detail: str(c.detail) } : {}),
        bytes: data ? base64DecodedBytes(data.data) : 0,
      }
    }
    case 'input_file': {
      const fileData = str(c.file_data)
      const data = fileData ? parseDataUrl(fileData) : null
      return {
        kind: 'file',
        ...(str(c.filename) !== undefined ? { filename: str(c.filename) } : {}),
        ...(data ? { mediaType: data.mediaType, data: data.data } : {}),
        ...(str(c.file_id) !== undefined ? { fileId: str(c.file_id) } : {}),
        ...(str(c.file_url) !== undefined ? { url: str(c.file_url) } : {}),
        bytes: data ? base64DecodedBytes(data.data) : 0,
      }
    }
    default:
      return {
        kind: 'opaque',
        opaque: { label: `${String(c.type)} content`, bytes: utf8Bytes(JSON.stringify(c)) },
        raw: c,
        // A content block of a message, whatever its type says (not a whole item).
        meta: { field: 'content' },
      }
  }
}

/** Texts of a reasoning item: full `content` when Codex kept it, else the provider summary. */
export function reasoningTexts(item: Item): { text: string; textKind: 'full' | 'summary' } {
  const content = Array.isArray(item.content) ? item.content : []
  const full = content.map((c) => (isObject(c) ? (str(c.text) ?? '') : '')).join('\n\n')
  if (content.length > 0) return { text: full, textKind: 'full' }
  const summary = Array.isArray(item.summary) ? item.summary : []
  return {
    text: summary.map((s) => (isObject(s) ? (str(s.text) ?? '') : '')).join('\n\n'),
    textKind: 'summary',
  }
}

function reasoningPart(item: Item): ReasoningPart {
  const enc = str(item.encrypted_content)
  return {
    kind: 'reasoning',
    ...reasoningTexts(item),
    ...(enc !== undefined
      ? { opaque: { label: 'encrypted reasoning', bytes: enc.length, data: enc } }
      : {}),
  }
}

function toolResultPart(item: Item): ToolResultPart {
  const output = item.output
  let content: ResultContent[]
  if (typeof output === 'string') content = [{ kind: 'text', text: output }]
  else if (Array.isArray(output)) content = output.map(contentPart)
  else if (output === undefined || output === null) content = []
  else content = [{ kind: 'text', text: JSON.stringify(output) }]
  return newToolResult({ callId: str(item.call_id) ?? null, content, isError: false })
}

function opaqueItem(item: Item): OpaquePart {
  const label =
    item.type === 'compaction' || item.type === 'compaction_summary'
      ? 'encrypted compaction'
      : String(item.type)
  const payload = str(item.encrypted_content) ?? str(item.result)
  return {
    kind: 'opaque',
    opaque: {
      label,
      bytes: payload !== undefined ? payload.length : utf8Bytes(JSON.stringify(item)),
    },
    raw: item,
  }
}
