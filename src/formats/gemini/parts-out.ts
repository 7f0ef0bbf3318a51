import type { Part, ResultContent } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { snakeCase } from './parts.ts'
import { parseJson } from '../../engine/json.ts'

// Serializer direction: canonical parts → Gemini parts (inverse of parts.ts).

type Json = Record<string, unknown>

/** Inverse of `responseText` (parts.ts): the functionResponse `response` object from result text. */
export function responseObject(
  text: string,
  meta: Readonly<Record<string, unknown>> | undefined,
): unknown {
  const key = str(meta?.responseKey)
  if (key && key !== 'json') {
    const extras = isObject(meta?.responseExtras) ? meta.responseExtras : {}
    return { ...extras, [key]: text }
  }
  try {
    return parseJson(text) as unknown
  } catch {
    return { output: text }
  }
}

function key(name: string, snake: boolean): string {
  return snake ? snakeCase(name) : name
}

function extrasOf(meta: Readonly<Record<string, unknown>> | undefined, name: string): Json {
  const v = meta?.[name]
  return isObject(v) ? v : {}
}

function resultText(content: readonly ResultContent[]): string {
  return content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
}

/**
 * One canonical part → one Gemini part (`{raw}` wraps a verbatim opaque value), or null when it
 * only carries a signature for the previous part.
 */
function geminiPart(p: Part): Json | { raw: unknown } | null {
  const snake = p.meta?.snake === true
  const k = (n: string): string => key(n, snake)
  const ex = extrasOf(p.meta, 'extras')
  switch (p.kind) {
    case 'text':
      return {
        [k('text')]: p.text,
        ...(p.meta?.thought === 'false' ? { thought: false } : {}),
        ...ex,
      }
    case 'reasoning':
      return {
        [k('text')]: p.text,
        thought: true,
        ...(p.opaque?.data !== undefined ? { [k('thoughtSignature')]: p.opaque.data } : {}),
        ...ex,
      }
    case 'tool_call': {
      const args = p.args !== undefined ? p.args : p.argsRaw
      if (p.callType === 'executableCode') {
        return {
          [k('executableCode')]: {
            ...(p.callId !== null ? { id: p.callId } : {}),
            ...(isObject(args) ? args : {}),
          },
          ...ex,
        }
      }
      const call: Json = {}
      if (p.callId !== null) call.id = p.callId
      call.name = p.name
      call.args = args
      return { [k('functionCall')]: { ...call, ...extrasOf(p.meta, 'callExtras') }, ...ex }
    }
    case 'tool_result': {
      const text = resultText(p.content)
      if (p.meta?.callType === 'codeExecutionResult') {
        const res: Json = {
          ...(p.callId !== null ? { id: p.callId } : {}),
          ...extrasOf(p.meta, 'resultExtras'),
          output: text,
        }
        return { [k('codeExecutionResult')]: res, ...ex }
      }
      const fr: Json = {}
      if (p.callId !== null) fr.id = p.callId
      fr.name = p.name ?? ''
      fr.response = responseObject(text, p.meta)
      return { [k('functionResponse')]: { ...fr, ...extrasOf(p.meta, 'resultExtras') }, ...ex }
    }
    case 'image':
    case 'file': {
      const mx = extrasOf(p.meta, 'mediaExtras')
      if (p.data !== undefined) {
        return { [k('inlineData')]: { [k('mimeType')]: p.mediaType, data: p.data, ...mx }, ...ex }
      }
      return {
        [k('fileData')]: { [k('mimeType')]: p.mediaType, [k('fileUri')]: p.url ?? p.fileId, ...mx },
        ...ex,
      }
    }
    case 'opaque':
      if (p.opaque.label === 'thoughtSignature' && p.meta?.signatureOf !== undefined) {
        if (p.meta.signatureOf === 'previous') return null
        const t = p.meta.thought
        return {
          [k('thoughtSignature')]: p.opaque.data ?? '',
          ...(t !== undefined ? { thought: t } : {}),
        }
      }
      // Written back as found, even when it was not an object (the source's own mistake).
      return p.raw === undefined ? null : { raw: p.raw }
  }
}

/** Canonical parts → Gemini parts, re-attaching split-off thought signatures. */
export function partsToGemini(parts: readonly Part[]): unknown[] {
  const out: unknown[] = []
  for (const p of parts) {
    const g = geminiPart(p)
    if (g) {
      out.push(p.kind === 'opaque' && 'raw' in g ? g.raw : g)
      continue
    }
    if (p.kind !== 'opaque') continue
    const prev = out[out.length - 1]
    const sigKey = key('thoughtSignature', p.meta?.snake === true)
    if (isObject(prev) && !('thoughtSignature' in prev) && !('thought_signature' in prev))
      prev[sigKey] = p.opaque.data ?? ''
    else out.push({ [sigKey]: p.opaque.data ?? '' })
  }
  return out
}
