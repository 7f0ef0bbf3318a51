import type { ResultContent } from '../../engine/model.ts'
import { base64DecodedBytes, isObject, parseDataUrl, str } from '../util.ts'
import { extraKeys, imageFromUrl, imageUrlOf } from '../openai-chat/content.ts'

/**
 * Responses content parts (`input_text`, `output_text`, `input_image`, `input_file`, `refusal`)
 * ⇄ canonical parts. Used for message items and for array outputs of `*_call_output` items.
 */

const TEXT_KEYS = new Set(['type', 'text'])
const IMAGE_KEYS = new Set(['type', 'image_url', 'file_id', 'detail'])
const FILE_KEYS = new Set(['type', 'file_id', 'file_data', 'filename', 'file_url'])

export function partFromResponses(raw: unknown): ResultContent {
  if (!isObject(raw)) return opaquePart(raw)
  const type = str(raw.type)
  if (
    (type === 'input_text' || type === 'output_text' || type === 'text') &&
    typeof raw.text === 'string'
  ) {
    const extra = extraKeys(raw, TEXT_KEYS)
    return { kind: 'text', text: raw.text, meta: { partType: type, ...(extra ? { extra } : {}) } }
  }
  if (type === 'refusal' && typeof raw.refusal === 'string') {
    return { kind: 'text', text: raw.refusal, meta: { partType: 'refusal' } }
  }
  if (type === 'input_image' || type === 'computer_screenshot') {
    const extra = extraKeys(raw, IMAGE_KEYS)
    const meta = { partType: type, ...(extra ? { extra } : {}) }
    const url = str(raw.image_url)
    if (url !== undefined)
      return imageFromUrl(url, str(raw.detail), { ...meta, ...fileIdMeta(raw) })
    return {
      kind: 'image',
      bytes: 0,
      ...(str(raw.file_id) !== undefined ? { fileId: str(raw.file_id) } : {}),
      ...(str(raw.detail) !== undefined ? { detail: str(raw.detail) } : {}),
      meta,
    }
  }
  if (type === 'input_file') {
    const extra = extraKeys(raw, FILE_KEYS)
    const fileData = str(raw.file_data)
    const parsed = fileData !== undefined ? parseDataUrl(fileData) : null
    const data = parsed ? parsed.data : fileData
    return {
      kind: 'file',
      ...(parsed ? { mediaType: parsed.mediaType } : {}),
      ...(str(raw.filename) !== undefined ? { filename: str(raw.filename) } : {}),
      ...(data !== undefined ? { data } : {}),
      ...(str(raw.file_url) !== undefined ? { url: str(raw.file_url) } : {}),
      ...(str(raw.file_id) !== undefined ? { fileId: str(raw.file_id) } : {}),
      bytes: data !== undefined ? base64DecodedBytes(data) : 0,
      meta: {
        partType: type,
        ...(parsed && fileData
          ? { dataUrlPrefix: fileData.slice(0, fileData.length - parsed.data.length) }
          : {}),
        ...(extra ? { extra } : {}),
      },
    }
  }
  return opaquePart(raw)
}

function fileIdMeta(raw: Record<string, unknown>): Record<string, unknown> {
  return typeof raw.file_id === 'string' ? { fileId: raw.file_id } : {}
}

function opaquePart(raw: unknown): ResultContent {
  const type = isObject(raw) ? str(raw.type) : undefined
  return {
    kind: 'opaque',
    opaque: {
      label: type ? `${type} part` : 'unknown content part',
      bytes: (JSON.stringify(raw) ?? '').length,
    },
    raw,
  }
}

/**
 * Canonical part → Responses content part. `textType` is the default part type for text that
 * has none recorded (a strategy's placeholder): `input_text` for inputs, `output_text` for the
 * assistant.
 */
export function partToResponses(part: ResultContent, textType: string): unknown {
  const extra = isObject(part.meta?.extra) ? part.meta.extra : {}
  switch (part.kind) {
    case 'text': {
      const type = str(part.meta?.partType) ?? textType
      if (type === 'refusal') return { type, refusal: part.text }
      return { type, text: part.text, ...extra }
    }
    case 'image': {
      const type = str(part.meta?.partType) ?? 'input_image'
      const hasUrl = part.data !== undefined || part.url !== undefined
      const fileId = part.fileId ?? str(part.meta?.fileId)
      return {
        type,
        ...(hasUrl ? { image_url: imageUrlOf(part) } : {}),
        ...(fileId !== undefined ? { file_id: fileId } : {}),
        ...(part.detail !== undefined ? { detail: part.detail } : {}),
        ...extra,
      }
    }
    case 'file': {
      const prefix = str(part.meta?.dataUrlPrefix) ?? ''
      return {
        type: 'input_file',
        ...(part.fileId !== undefined ? { file_id: part.fileId } : {}),
        ...(part.data !== undefined ? { file_data: prefix + part.data } : {}),
        ...(part.url !== undefined ? { file_url: part.url } : {}),
        ...(part.filename !== undefined ? { filename: part.filename } : {}),
        ...extra,
      }
    }
    case 'opaque':
      return part.raw ?? null
  }
}
