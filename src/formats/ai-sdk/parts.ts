import type {
  FilePart,
  ImagePart,
  Part,
  ResultContent,
  ToolResultPart,
} from '../../engine/model.ts'
import {
  arr,
  base64DecodedBytes,
  callFromObjectArgs,
  isObject,
  parseDataUrl,
  str,
} from '../util.ts'

type Obj = Record<string, unknown>

export function without(obj: Obj, ...keys: string[]): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v
  return out
}

/** image/file payloads: a URL, a data URL, or bare base64. */
export function media(
  kind: 'image' | 'file',
  payload: unknown,
  mediaType: string | undefined,
  raw: Obj,
): ImagePart | FilePart | Part {
  if (typeof payload !== 'string') {
    const bytes = JSON.stringify(payload ?? null).length
    return {
      kind: 'opaque',
      opaque: { label: `${kind} (binary)`, bytes },
      raw: { ...raw, payload },
      meta: { raw },
    }
  }
  const dataUrl = parseDataUrl(payload)
  const isUrl = !dataUrl && /^[a-z][a-z0-9+.-]*:/i.test(payload.slice(0, 20))
  const data = dataUrl ? dataUrl.data : isUrl ? undefined : payload
  const type = mediaType ?? dataUrl?.mediaType
  // How the payload was written, so the serializer writes it the same way.
  const meta = { raw, form: dataUrl ? 'dataUrl' : isUrl ? 'url' : 'base64' }
  const body =
    data !== undefined ? { data, bytes: base64DecodedBytes(data) } : { url: payload, bytes: 0 }
  if (kind === 'image')
    return { kind: 'image', ...(type ? { mediaType: type } : {}), ...body, meta }
  return {
    kind: 'file',
    ...(type ? { mediaType: type } : {}),
    ...(str(raw.filename) ? { filename: str(raw.filename) } : {}),
    ...body,
    meta,
  }
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null)
}

/** A ModelMessage `tool-result` part (v5 `output`, v4 `result`) → canonical result. */
export function toolResult(p: Obj): ToolResultPart {
  const callId = typeof p.toolCallId === 'string' ? p.toolCallId : null
  const name = str(p.toolName)
  const base = { kind: 'tool_result' as const, callId, ...(name !== undefined ? { name } : {}) }
  if ('output' in p && isObject(p.output)) {
    const out = p.output
    const type = str(out.type) ?? 'text'
    const meta = { raw: without(p, 'output'), outputType: type, outputRaw: without(out, 'value') }
    if (type === 'content') {
      const content: ResultContent[] = arr(out.value).map((c): ResultContent => {
        if (isObject(c) && c.type === 'text') return { kind: 'text', text: str(c.text) ?? '' }
        if (isObject(c) && c.type === 'media') {
          const m = media(
            str(c.mediaType)?.startsWith('image/') ? 'image' : 'file',
            c.data,
            str(c.mediaType),
            c,
          )
          if (m.kind === 'image' || m.kind === 'file') return m
        }
        return {
          kind: 'opaque',
          opaque: { label: 'tool output part', bytes: stringify(c).length },
          raw: c,
        }
      })
      return { ...base, content, isError: false, meta }
    }
    const isError = type.startsWith('error') || type === 'execution-denied'
    const text = type === 'execution-denied' ? (str(out.reason) ?? '') : stringify(out.value)
    return { ...base, content: [{ kind: 'text', text }], isError, meta }
  }
  // v4 CoreMessage: `result` (any) + `isError`.
  const json = typeof p.result !== 'string'
  return {
    ...base,
    content: [{ kind: 'text', text: stringify(p.result) }],
    isError: p.isError === true,
    meta: { raw: without(p, 'result'), outputType: json ? 'json' : 'text', v4: true },
  }
}

/** A ModelMessage content part → canonical part. */
export function modelPart(p: unknown): Part {
  if (!isObject(p))
    return { kind: 'opaque', opaque: { label: 'content part', bytes: stringify(p).length }, raw: p }
  switch (p.type) {
    case 'text':
      return { kind: 'text', text: str(p.text) ?? '', meta: { raw: without(p, 'text') } }
    case 'image':
      return media('image', p.image, str(p.mediaType) ?? str(p.mimeType), without(p, 'image'))
    case 'file':
      return media('file', p.data, str(p.mediaType) ?? str(p.mimeType), without(p, 'data'))
    case 'reasoning': {
      const po = isObject(p.providerOptions) ? p.providerOptions : {}
      const anthropic = isObject(po.anthropic) ? po.anthropic : {}
      const sig = str(p.signature) ?? str(anthropic.signature) ?? str(anthropic.redactedData)
      return {
        kind: 'reasoning',
        text: str(p.text) ?? '',
        ...(sig ? { opaque: { label: 'reasoning signature', bytes: sig.length } } : {}),
        meta: { raw: without(p, 'text') },
      }
    }
    case 'redacted-reasoning': {
      const data = str(p.data) ?? ''
      return {
        kind: 'reasoning',
        text: '',
        redacted: true,
        opaque: { label: 'redacted reasoning', bytes: data.length, data },
        meta: { raw: p },
      }
    }
    case 'tool-call': {
      const v4 = !('input' in p) && 'args' in p
      return callFromObjectArgs(
        {
          callId: typeof p.toolCallId === 'string' ? p.toolCallId : null,
          name: str(p.toolName) ?? '',
          ...(p.providerExecuted === true ? { serverSide: true } : {}),
          meta: { raw: without(p, 'input', 'args'), ...(v4 ? { v4: true } : {}) },
        },
        v4 ? p.args : p.input,
      )
    }
    case 'tool-result':
      return toolResult(p)
    default:
      return {
        kind: 'opaque',
        opaque: { label: `${String(p.type)} part`, bytes: stringify(p).length },
        raw: p,
      }
  }
}
