/**
 * Messages and parts as the detail drawer shows them: every part becomes a line of text (prose,
 * JSON arguments, result text, or a size line for binary payloads), cut at a character limit, with
 * its token price. Split from detail.ts to keep files small.
 */
import type { Message, OpaqueData, Part, ResultContent, Role, TextPart } from '../engine/model.ts'
import {
  DEFAULT_FRAMING,
  pricePart,
  priceText,
  type ModelFamily,
} from '../engine/tokens/pricing.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { WireMessage, WirePart } from './types.ts'

/** How the parts of one conversation are priced and cut. */
export interface PartContext {
  readonly counter: TextCounter
  readonly family: ModelFamily
  /** Characters kept per text (and per raw JSON); the full length is reported beside it. */
  readonly maxChars: number
}

/** "512 B", "48 kB", "2.1 MB": decimal units, as file managers show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** Whether a URL is really an inline payload (a data: URI): shown by size, never as text. */
const isDataUrl = (url: string): boolean => url.slice(0, 5).toLowerCase() === 'data:'

const MAX_URL = 200

function where(p: { readonly url?: string; readonly fileId?: string }): string {
  if (p.url !== undefined && !isDataUrl(p.url))
    return p.url.length > MAX_URL ? `${p.url.slice(0, MAX_URL - 1)}…` : p.url
  if (p.fileId !== undefined) return `file id ${p.fileId}`
  return ''
}

/** A binary payload as one line of words: what it is and how big, never its bytes. */
function sizeLine(c: Exclude<ResultContent, TextPart>): string {
  switch (c.kind) {
    case 'image':
    case 'file': {
      const what =
        c.kind === 'file'
          ? [c.filename, c.mediaType ?? 'file'].filter(Boolean).join(' · ')
          : (c.mediaType ?? 'image')
      const size = c.bytes > 0 ? formatBytes(c.bytes) : c.data ? formatBytes(c.data.length) : ''
      const located = where(c)
      return [what, size ? `${size} inline` : '', located].filter(Boolean).join(', ')
    }
    case 'opaque':
      return opaqueLine(c.opaque)
    default: {
      const unknownContent: never = c
      return unknownContent
    }
  }
}

const opaqueLine = (o: OpaqueData): string => `${o.label}, ${formatBytes(o.bytes)} (opaque)`

/** Keep at most `max` characters without splitting a surrogate pair. */
export function cut(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false }
  let end = max
  const code = text.charCodeAt(end - 1)
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--
  return { text: text.slice(0, end), truncated: true }
}

/** The label and full text of a part (before cutting). */
function describe(part: Part): { label: string; text: string } {
  switch (part.kind) {
    case 'text':
      return { label: '', text: part.text }
    case 'reasoning': {
      const label = [
        part.redacted ? 'redacted' : '',
        part.textKind === 'summary' ? 'summary' : '',
        part.opaque ? opaqueLine(part.opaque) : '',
      ]
        .filter(Boolean)
        .join(' · ')
      return { label, text: part.text }
    }
    case 'tool_call':
      return {
        label: [part.name, part.callId ?? 'no call id', part.serverSide ? 'server-side' : '']
          .filter(Boolean)
          .join(' · '),
        text: part.argsRaw,
      }
    case 'tool_result': {
      const label = [part.name ?? '', part.callId ?? 'no call id', part.isError ? 'error' : '']
        .filter(Boolean)
        .join(' · ')
      const text = part.content
        .map((c) => (c.kind === 'text' ? c.text : `[${sizeLine(c)}]`))
        .join('\n')
      return { label, text }
    }
    case 'image':
    case 'file':
      return { label: part.mediaType ?? part.kind, text: sizeLine(part) }
    case 'opaque':
      return { label: part.opaque.label, text: sizeLine(part) }
    default: {
      const unknownPart: never = part
      return unknownPart
    }
  }
}

export function wirePart(part: Part, role: Role, ctx: PartContext, replaced?: boolean): WirePart {
  const { label, text } = describe(part)
  const kept = cut(text, ctx.maxChars)
  return {
    kind: part.kind,
    label,
    text: kept.text,
    chars: text.length,
    truncated: kept.truncated,
    tokens: pricePart(part, role, ctx.counter, ctx.family, DEFAULT_FRAMING),
    ...(replaced ? { replaced: true } : {}),
    ...((part.kind === 'tool_call' || part.kind === 'tool_result') && part.derivedFrom
      ? { derivedFrom: part.derivedFrom }
      : {}),
  }
}

const omitted = (data: string): string => `[${formatBytes(data.length)} of inline data omitted]`

function redactOpaque(o: OpaqueData): OpaqueData {
  return o.data === undefined ? o : { ...o, data: omitted(o.data) }
}

function redactContent(c: ResultContent): ResultContent {
  switch (c.kind) {
    case 'text':
      return c
    case 'image':
    case 'file':
      return c.data === undefined ? c : { ...c, data: omitted(c.data) }
    case 'opaque':
      return redactPart(c) as ResultContent
    default: {
      const unknownContent: never = c
      return unknownContent
    }
  }
}

/** The part with binary payloads replaced by a size note, so raw JSON never carries base64. */
function redactPart(part: Part): Part {
  switch (part.kind) {
    case 'image':
    case 'file':
      return part.data === undefined ? part : { ...part, data: omitted(part.data) }
    case 'opaque': {
      const { raw, ...rest } = part
      return {
        ...rest,
        opaque: redactOpaque(part.opaque),
        ...(raw !== undefined ? { raw: '[original block omitted]' } : {}),
      }
    }
    case 'reasoning':
      return part.opaque ? { ...part, opaque: redactOpaque(part.opaque) } : part
    case 'tool_result':
      return { ...part, content: part.content.map(redactContent) }
    case 'text':
    case 'tool_call':
      return part
    default: {
      const unknownPart: never = part
      return unknownPart
    }
  }
}

/**
 * The canonical message as indented JSON, without binary payloads and without `source` (the
 * serializer's private envelope data, which the model never sees).
 */
export function rawJson(message: Message): string {
  const { source, ...rest } = message
  void source
  return JSON.stringify({ ...rest, parts: message.parts.map(redactPart) }, null, 2)
}

/**
 * One message for the drawer. `replaced` flags parts of a projected message that are not the
 * original objects (a strategy replaced them); `tokens` is the message's priced total.
 */
export function wireMessage(
  message: Message,
  index: number,
  tokens: number,
  ctx: PartContext,
  original?: Message,
): WireMessage {
  const originals = original ? new Set<Part>(original.parts) : null
  const raw = rawJson(message)
  return {
    id: message.id,
    index,
    role: message.role,
    parts: message.parts.map((p) =>
      wirePart(p, message.role, ctx, originals !== null && !originals.has(p)),
    ),
    tokens,
    raw: cut(raw, ctx.maxChars).text,
    rawChars: raw.length,
  }
}

/** The top-level system prompt as one pseudo-message (it lives outside `messages`). */
export function systemMessage(blocks: readonly TextPart[], ctx: PartContext): WireMessage {
  const parts = blocks.map((b): WirePart => {
    const kept = cut(b.text, ctx.maxChars)
    return {
      kind: 'text',
      label: '',
      text: kept.text,
      chars: b.text.length,
      truncated: kept.truncated,
      tokens: priceText(b.text, ctx.counter).tokens,
    }
  })
  const raw = JSON.stringify(blocks, null, 2)
  return {
    id: 'system',
    index: -1,
    role: 'system',
    parts,
    tokens: parts.reduce((a, p) => a + p.tokens, 0),
    raw: cut(raw, ctx.maxChars).text,
    rawChars: raw.length,
  }
}
