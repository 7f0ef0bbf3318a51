import type { Part, ReasoningPart } from '../../engine/model.ts'
import { base64DecodedBytes, callFromObjectArgs, callFromRawArgs, isObject, str } from '../util.ts'
import { extraKeys } from '../openai-chat/content.ts'
import { partFromResponses } from './content.ts'

/**
 * Model-output items (assistant `message`, `reasoning`, `*_call`) → canonical parts of the one
 * assistant message of their model call. See items.ts for the meta conventions.
 */

export function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  if (Array.isArray(content)) return content.map(partFromResponses)
  return []
}

const CALL_MAPPED: Readonly<Record<string, readonly string[]>> = {
  function_call: ['type', 'call_id', 'name', 'arguments'],
  custom_tool_call: ['type', 'call_id', 'name', 'input'],
  local_shell_call: ['type', 'call_id', 'action'],
}

/** Parts of one model-output item; `key` groups them for the serializer. */
export function outputItemParts(
  item: Record<string, unknown>,
  key: string,
  warn: (m: string) => void,
): Part[] {
  const type = str(item.type) ?? 'message'
  if (type === 'message') {
    const extra = extraKeys(item, new Set(['type', 'role', 'content']))
    const parts = contentParts(item.content)
    const head = {
      item: key,
      itemType: 'message',
      ...(item.type === undefined ? { noType: true } : {}),
      ...(typeof item.content === 'string' ? { easy: true } : {}),
      ...(extra ? { itemExtra: extra } : {}),
    }
    // An assistant message without content still needs a part to carry its identity.
    if (parts.length === 0)
      return [{ kind: 'text', text: '', meta: { ...head, emptyContent: item.content ?? null } }]
    return parts.map(
      (p, i) => ({ ...p, meta: { ...p.meta, ...(i === 0 ? head : { item: key }) } }) as Part,
    )
  }
  if (type === 'reasoning') return reasoningParts(item, key)
  const callId = typeof item.call_id === 'string' ? item.call_id : null
  const clientSide = 'call_id' in item
  const mapped = new Set(CALL_MAPPED[type] ?? ['type', 'call_id', 'name', 'arguments'])
  if (!CALL_MAPPED[type]) {
    // Generic call: every field except identity/status is what the model saw (query, results…).
    for (const k of Object.keys(item)) if (k !== 'id' && k !== 'status') mapped.add(k)
  }
  const extra = extraKeys(item, mapped)
  const meta = {
    item: key,
    itemType: type,
    ...(extra ? { itemExtra: extra } : {}),
    ...(CALL_MAPPED[type] && !('call_id' in item) ? { noCallId: true } : {}),
  }
  if ((type === 'function_call' || type === 'custom_tool_call') && callId === null) {
    warn(`\`${type}\` has no \`call_id\` (the item \`id\` is not the correlation key)`)
  }
  const name = str(item.name)
  if (type === 'function_call') {
    return [
      callFromRawArgs(
        { callId, name: name ?? '', callType: 'function', meta },
        str(item.arguments) ?? '',
      ),
    ]
  }
  if (type === 'custom_tool_call') {
    return [
      {
        kind: 'tool_call',
        callId,
        name: name ?? '',
        argsRaw: str(item.input) ?? '',
        callType: 'custom',
        meta,
      },
    ]
  }
  if (type === 'local_shell_call') {
    return [
      callFromObjectArgs({ callId, name: 'local_shell', callType: type, meta }, item.action ?? {}),
    ]
  }
  const args: Record<string, unknown> = {}
  for (const k of Object.keys(item))
    if (!['type', 'id', 'status', 'call_id', 'name'].includes(k)) args[k] = item[k]
  // Generated images are base64: count them as an image, not as argument text.
  const image =
    type === 'image_generation_call' && typeof item.result === 'string' ? item.result : undefined
  if (image !== undefined) delete args.result
  const base = {
    callId: clientSide ? callId : (str(item.id) ?? null),
    name: name ?? type.replace(/_call$/, ''),
    callType: type,
    ...(clientSide ? {} : { serverSide: true }),
    meta: {
      ...meta,
      ...(name === undefined ? { noName: true } : {}),
      ...(clientSide ? { clientSide: true } : {}),
    },
  }
  const call = callFromObjectArgs(base, args)
  if (image === undefined) return [call]
  return [
    call,
    {
      kind: 'image',
      mediaType: 'image/png',
      data: image,
      bytes: base64DecodedBytes(image),
      meta: { item: key, field: 'result' },
    },
  ]
}

function reasoningParts(item: Record<string, unknown>, key: string): Part[] {
  const summaryTexts = Array.isArray(item.summary) ? item.summary.map(textOf) : undefined
  const contentTexts =
    Array.isArray(item.content) && item.content.length > 0 ? item.content.map(textOf) : undefined
  const mapped = new Set(['type', 'encrypted_content'])
  if (summaryTexts) mapped.add('summary')
  if (contentTexts) mapped.add('content')
  const extra = extraKeys(item, mapped)
  const enc = str(item.encrypted_content)
  const summaryPart: ReasoningPart = {
    kind: 'reasoning',
    text: (summaryTexts ?? []).join('\n\n'),
    textKind: 'summary',
    ...(enc !== undefined
      ? { opaque: { label: 'encrypted reasoning', bytes: enc.length, data: enc } }
      : {}),
    meta: {
      item: key,
      itemType: 'reasoning',
      field: 'summary',
      ...(summaryTexts && summaryTexts.length > 1 ? { texts: summaryTexts } : {}),
      ...(summaryTexts ? {} : { noSummary: true }),
      ...(extra ? { itemExtra: extra } : {}),
    },
  }
  if (!contentTexts) return [summaryPart]
  return [
    summaryPart,
    {
      kind: 'reasoning',
      text: contentTexts.join('\n\n'),
      textKind: 'full',
      meta: {
        item: key,
        field: 'content',
        ...(contentTexts.length > 1 ? { texts: contentTexts } : {}),
      },
    },
  ]
}

function textOf(part: unknown): string {
  return isObject(part) && typeof part.text === 'string' ? part.text : ''
}
