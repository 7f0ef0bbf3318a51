import type { OpaquePart, Part, ToolResultPart } from '../../engine/model.ts'
import type { JsonPath } from '../locate.ts'
import {
  base64DecodedBytes,
  callFromObjectArgs,
  describe,
  isObject,
  str,
  utf8Bytes,
} from '../util.ts'

/** Reports a recoverable problem at a JSON path. */
export type Warn = (path: JsonPath, message: string) => void

type Json = Record<string, unknown>

/** `thoughtSignature` → `thought_signature`: proto-JSON accepts both spellings. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/** Read `key` in camelCase or snake_case, remembering when snake_case was used. */
export class KeyReader {
  snake = false
  readonly obj: Json

  constructor(obj: Json) {
    this.obj = obj
  }

  get(camel: string): unknown {
    if (camel in this.obj) return this.obj[camel]
    const s = snakeCase(camel)
    if (s in this.obj) {
      this.snake = true
      return this.obj[s]
    }
    return undefined
  }

  has(camel: string): boolean {
    return camel in this.obj || snakeCase(camel) in this.obj
  }

  /** Keys not in `known` (either spelling): kept verbatim for the serializer. */
  extras(known: readonly string[]): Json | undefined {
    let out: Json | undefined
    for (const k of Object.keys(this.obj)) {
      if (known.includes(k) || known.some((c) => snakeCase(c) === k)) continue
      out ??= {}
      out[k] = this.obj[k]
    }
    return out
  }
}

const PART_KEYS = [
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'functionResponse',
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
]

function compact(fields: Json): Json | undefined {
  const out: Json = {}
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== false) out[k] = v
  return Object.keys(out).length > 0 ? out : undefined
}

function signaturePart(sig: string, standalone: boolean, m?: Json): OpaquePart {
  return {
    kind: 'opaque',
    opaque: { label: 'thoughtSignature', bytes: utf8Bytes(sig), data: sig },
    // `previous`: the signature belongs to the part before it (text or functionCall).
    meta: { signatureOf: standalone ? 'none' : 'previous', ...m },
  }
}

/** Which key of a functionResponse `response` holds the readable result. */
const RESULT_KEYS = ['output', 'result', 'return_value', 'error'] as const

/** `functionResponse.response` → result text, remembering how to rebuild the object. */
export function responseText(response: unknown): { text: string; meta: Json; isError: boolean } {
  if (isObject(response)) {
    for (const key of RESULT_KEYS) {
      if (typeof response[key] === 'string') {
        const { [key]: text, ...rest } = response
        return {
          text: text as string,
          meta: {
            responseKey: key,
            ...(Object.keys(rest).length > 0 ? { responseExtras: rest } : {}),
          },
          isError: key === 'error',
        }
      }
    }
  }
  return { text: JSON.stringify(response ?? null), meta: { responseKey: 'json' }, isError: false }
}

function media(raw: Json, r: KeyReader, kind: 'inline' | 'file'): Part {
  const outer = kind === 'inline' ? 'inlineData' : 'fileData'
  const value = r.get(outer)
  const inner = new KeyReader(isObject(value) ? value : {})
  const mediaType = str(inner.get('mimeType'))
  const m = compact({
    snake: isSnake(raw, outer) || inner.snake,
    extras: r.extras(PART_KEYS),
    mediaExtras: inner.extras(['mimeType', 'data', 'fileUri']),
  })
  const metaField = m ? { meta: m } : {}
  const partKind = mediaType?.startsWith('image/') ? ('image' as const) : ('file' as const)
  if (kind === 'inline') {
    const data = str(inner.get('data')) ?? ''
    return { kind: partKind, mediaType, data, bytes: base64DecodedBytes(data), ...metaField }
  }
  return { kind: partKind, mediaType, url: str(inner.get('fileUri')), bytes: 0, ...metaField }
}

/** True when `camel` is absent but its snake_case spelling is present. */
function isSnake(obj: Json, camel: string): boolean {
  return !(camel in obj) && snakeCase(camel) in obj
}

/**
 * One Gemini part → canonical parts (a `thoughtSignature` on a text or functionCall part becomes
 * a separate opaque part right after it, so it is counted; the serializer re-attaches it).
 */
export function partsFromGeminiPart(raw: unknown, path: JsonPath, warn: Warn): Part[] {
  if (!isObject(raw)) {
    warn(
      path,
      `expected a part object ({text} | {functionCall} | …), got ${describe(raw)}; kept as is`,
    )
    return [
      {
        kind: 'opaque',
        opaque: { label: 'invalid part', bytes: utf8Bytes(JSON.stringify(raw) ?? '') },
        raw,
      },
    ]
  }
  const r = new KeyReader(raw)
  const sigValue = r.get('thoughtSignature')
  const sig = typeof sigValue === 'string' ? sigValue : undefined
  const thought = r.get('thought')
  const text = r.get('text')
  // Spelling is remembered per key: one body can mix `functionCall` and `thought_signature`.
  const sigSnake = isSnake(raw, 'thoughtSignature')
  const after = sig !== undefined ? [signaturePart(sig, false, compact({ snake: sigSnake }))] : []
  const base = (contentKey: string): Json | undefined =>
    compact({ snake: isSnake(raw, contentKey), extras: r.extras(PART_KEYS) })
  if (typeof text === 'string') {
    if (thought === true) {
      const m = compact({ snake: sigSnake, extras: r.extras(PART_KEYS) })
      return [
        {
          kind: 'reasoning',
          text,
          textKind: 'summary',
          ...(sig !== undefined
            ? { opaque: { label: 'thoughtSignature', bytes: utf8Bytes(sig), data: sig } }
            : {}),
          ...(m ? { meta: m } : {}),
        },
      ]
    }
    const m = compact({
      extras: r.extras(PART_KEYS),
      thought: thought === false ? 'false' : undefined,
    })
    return [{ kind: 'text', text, ...(m ? { meta: m } : {}) }, ...after]
  }
  const fc = r.get('functionCall')
  if (isObject(fc)) {
    const c = new KeyReader(fc)
    const name = str(c.get('name'))
    if (name === undefined) warn(path, 'expected `functionCall.name` (a string)')
    const id = c.get('id')
    const m = compact({ ...base('functionCall'), callExtras: c.extras(['id', 'name', 'args']) })
    const call = callFromObjectArgs(
      { callId: typeof id === 'string' ? id : null, name: name ?? '' },
      c.get('args'),
    )
    return [m ? { ...call, meta: m } : call, ...after]
  }
  const fr = r.get('functionResponse')
  if (isObject(fr)) {
    const c = new KeyReader(fr)
    const id = c.get('id')
    const res = responseText(c.get('response'))
    const m = compact({
      ...base('functionResponse'),
      ...res.meta,
      resultExtras: c.extras(['id', 'name', 'response']),
    })
    const part: ToolResultPart = {
      kind: 'tool_result',
      callId: typeof id === 'string' ? id : null,
      name: str(c.get('name')) ?? '',
      content: [{ kind: 'text', text: res.text }],
      isError: res.isError,
      ...(m ? { meta: m } : {}),
    }
    return [part, ...after]
  }
  if (r.has('inlineData')) return [media(raw, r, 'inline'), ...after]
  if (r.has('fileData')) return [media(raw, r, 'file'), ...after]
  const code = r.get('executableCode')
  if (isObject(code)) {
    // Code the model ran on Google's side: a provider-executed call, result in the same turn.
    const { id, ...args } = code
    const m = base('executableCode')
    const call = callFromObjectArgs(
      {
        callId: typeof id === 'string' ? id : null,
        name: 'code_execution',
        serverSide: true,
        callType: 'executableCode',
      },
      args,
    )
    return [m ? { ...call, meta: m } : call, ...after]
  }
  const cer = r.get('codeExecutionResult')
  if (isObject(cer)) {
    const c = new KeyReader(cer)
    const outcome = str(c.get('outcome'))
    const id = c.get('id')
    const m = compact({
      ...base('codeExecutionResult'),
      callType: 'codeExecutionResult',
      resultExtras: c.extras(['id', 'output']),
    })
    const part: ToolResultPart = {
      kind: 'tool_result',
      callId: typeof id === 'string' ? id : null,
      name: 'code_execution',
      content: [{ kind: 'text', text: str(c.get('output')) ?? '' }],
      isError: outcome !== undefined && outcome !== 'OUTCOME_OK',
      ...(m ? { meta: m } : {}),
    }
    return [part, ...after]
  }
  if (sig !== undefined && Object.keys(raw).length === 1 + (thought !== undefined ? 1 : 0)) {
    return [signaturePart(sig, true, compact({ snake: sigSnake, thought }))]
  }
  return [
    {
      kind: 'opaque',
      opaque: {
        label: `part ${Object.keys(raw).join('+') || '(empty)'}`,
        bytes: utf8Bytes(JSON.stringify(raw)),
      },
      raw,
    },
  ]
}

/** A Gemini `parts` array → canonical parts. */
export function partsFromGemini(parts: readonly unknown[], path: JsonPath, warn: Warn): Part[] {
  return parts.flatMap((p, i) => partsFromGeminiPart(p, [...path, i], warn))
}
