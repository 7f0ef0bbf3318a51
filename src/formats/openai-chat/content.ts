import type {
  FilePart,
  ImagePart,
  OpaquePart,
  ResultContent,
  TextPart,
} from '../../engine/model.ts'
import { base64DecodedBytes, isObject, parseDataUrl, str } from '../util.ts'
import { mapItems } from '../../engine/arrays.ts'

/**
 * Chat Completions content parts ⇄ canonical parts. Shared by user, assistant and tool messages
 * (tool results carry the same part shapes).
 */

/** How `content` was written, so the serializer writes back the same shape. */
/** `value`: content that is neither text nor a list of parts (an object, a number): kept opaque. */
export type ContentShape = 'string' | 'empty' | 'null' | 'absent' | 'parts' | 'value'

export function shapeOf(content: unknown, present: boolean): ContentShape {
  if (!present) return 'absent'
  if (content === null) return 'null'
  if (content === '') return 'empty'
  if (Array.isArray(content)) return 'parts'
  return typeof content === 'string' ? 'string' : 'value'
}

/** Keys of `obj` not in `known`, or undefined when there are none (keeps meta small). */
export function extraKeys(
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined
  // for…in avoids allocating an entries array per record (this runs once per message).
  for (const k in obj) {
    if (known.has(k)) continue
    extra ??= {}
    extra[k] = obj[k]
  }
  return extra
}

/** An image from an `image_url` URL: data URLs keep base64 + decoded size, others keep the URL. */
export function imageFromUrl(
  url: string,
  detail: string | undefined,
  meta?: Record<string, unknown>,
): ImagePart {
  const parsed = parseDataUrl(url)
  if (parsed) {
    const prefix = url.slice(0, url.length - parsed.data.length)
    const standard = `data:${parsed.mediaType};base64,`
    return {
      kind: 'image',
      mediaType: parsed.mediaType,
      data: parsed.data,
      bytes: base64DecodedBytes(parsed.data),
      ...(detail !== undefined ? { detail } : {}),
      // Only when the data URL had extra parameters: needed to write it back byte-for-byte.
      ...(prefix !== standard || meta
        ? { meta: { ...meta, ...(prefix !== standard ? { dataUrlPrefix: prefix } : {}) } }
        : {}),
    }
  }
  return {
    kind: 'image',
    url,
    bytes: 0,
    ...(detail !== undefined ? { detail } : {}),
    ...(meta ? { meta } : {}),
  }
}

/** Inverse of `imageFromUrl`. */
export function imageUrlOf(part: ImagePart): string {
  if (part.data !== undefined) {
    const prefix = str(part.meta?.dataUrlPrefix) ?? `data:${part.mediaType ?? 'image/png'};base64,`
    return prefix + part.data
  }
  return part.url ?? ''
}

const TEXT_KEYS = new Set(['type', 'text'])
const IMAGE_KEYS = new Set(['type', 'image_url'])

/** One content part → canonical part. Unknown parts are kept whole as opaque. */
export function partFromChat(raw: unknown): ResultContent {
  if (typeof raw === 'string') return { kind: 'text', text: raw, meta: { partType: 'string' } }
  if (!isObject(raw)) return opaqueContent(raw)
  const type = str(raw.type)
  if (type === 'text' && typeof raw.text === 'string') {
    const extra = extraKeys(raw, TEXT_KEYS)
    return { kind: 'text', text: raw.text, ...(extra ? { meta: { extra } } : {}) }
  }
  if (type === 'refusal' && typeof raw.refusal === 'string') {
    return { kind: 'text', text: raw.refusal, meta: { partType: 'refusal' } }
  }
  if (type === 'image_url') {
    const iu = raw.image_url
    const url = typeof iu === 'string' ? iu : isObject(iu) ? str(iu.url) : undefined
    if (url !== undefined) {
      const extra = extraKeys(raw, IMAGE_KEYS)
      const meta = {
        ...(typeof iu === 'string' ? { urlString: true } : {}),
        ...(extra ? { extra } : {}),
      }
      return imageFromUrl(
        url,
        isObject(iu) ? str(iu.detail) : undefined,
        Object.keys(meta).length ? meta : undefined,
      )
    }
  }
  if (
    type === 'input_audio' &&
    isObject(raw.input_audio) &&
    typeof raw.input_audio.data === 'string'
  ) {
    const format = str(raw.input_audio.format)
    const data = raw.input_audio.data
    return {
      kind: 'file',
      mediaType: format ? `audio/${format}` : 'audio',
      data,
      bytes: base64DecodedBytes(data),
      meta: { partType: 'input_audio', format },
    }
  }
  if (type === 'file' && isObject(raw.file)) return fileFromChat(raw.file)
  return opaqueContent(raw)
}

function fileFromChat(file: Record<string, unknown>): FilePart {
  const fileData = str(file.file_data)
  const parsed = fileData !== undefined ? parseDataUrl(fileData) : null
  const data = parsed ? parsed.data : fileData
  return {
    kind: 'file',
    ...(parsed ? { mediaType: parsed.mediaType } : {}),
    ...(str(file.filename) !== undefined ? { filename: str(file.filename) } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(str(file.file_id) !== undefined ? { fileId: str(file.file_id) } : {}),
    bytes: data !== undefined ? base64DecodedBytes(data) : 0,
    meta: {
      partType: 'file',
      ...(parsed && fileData
        ? { dataUrlPrefix: fileData.slice(0, fileData.length - parsed.data.length) }
        : {}),
    },
  }
}

export function opaqueContent(raw: unknown): OpaquePart {
  const text = JSON.stringify(raw) ?? ''
  const type = isObject(raw) ? str(raw.type) : undefined
  return {
    kind: 'opaque',
    opaque: { label: type ? `${type} part` : 'unknown content part', bytes: text.length },
    raw,
    meta: { field: 'content' },
  }
}

/** `content` (string | parts | null | absent) → canonical content parts. */
export function contentFromChat(content: unknown): ResultContent[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  if (Array.isArray(content)) return mapItems(content, (c) => partFromChat(c))
  if (content === null || content === undefined) return []
  return [opaqueContent(content)]
}

/** Canonical content part → Chat Completions content part. */
export function partToChat(part: ResultContent): unknown {
  switch (part.kind) {
    case 'text': {
      if (part.meta?.partType === 'refusal') return { type: 'refusal', refusal: part.text }
      if (part.meta?.partType === 'string') return part.text
      const extra = isObject(part.meta?.extra) ? part.meta.extra : {}
      return { type: 'text', text: part.text, ...extra }
    }
    case 'image': {
      const extra = isObject(part.meta?.extra) ? part.meta.extra : {}
      const url = imageUrlOf(part)
      if (part.meta?.urlString === true) return { type: 'image_url', image_url: url, ...extra }
      return {
        type: 'image_url',
        image_url: { url, ...(part.detail !== undefined ? { detail: part.detail } : {}) },
        ...extra,
      }
    }
    case 'file': {
      if (part.meta?.partType === 'input_audio') {
        return {
          type: 'input_audio',
          input_audio: { data: part.data ?? '', format: part.meta.format },
        }
      }
      const prefix = str(part.meta?.dataUrlPrefix)
      return {
        type: 'file',
        file: {
          ...(part.fileId !== undefined ? { file_id: part.fileId } : {}),
          ...(part.data !== undefined ? { file_data: (prefix ?? '') + part.data } : {}),
          ...(part.filename !== undefined ? { filename: part.filename } : {}),
        },
      }
    }
    case 'opaque':
      return part.raw ?? null
  }
}

/** Write content back in the shape it had (string when a single plain text part remains). */
export function contentToChat(
  parts: readonly ResultContent[],
  shape: ContentShape | undefined,
): unknown {
  if (parts.length === 0) {
    if (shape === 'null') return null
    if (shape === 'absent') return undefined
    if (shape === 'parts') return []
    return ''
  }
  const only = parts[0]
  // A malformed content value (not text, not a list) goes back as it was, not wrapped in a list.
  if (shape === 'value' && parts.length === 1 && only?.kind === 'opaque') return only.raw
  if (
    parts.length === 1 &&
    only?.kind === 'text' &&
    shape !== 'parts' &&
    only.meta?.partType === undefined &&
    only.meta?.extra === undefined
  ) {
    return only.text
  }
  return parts.map(partToChat)
}

export function isTextPart(part: unknown): part is TextPart {
  return isObject(part) && part.kind === 'text'
}
