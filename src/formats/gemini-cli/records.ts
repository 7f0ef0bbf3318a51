import type { Part, ReportedUsage, ResultContent } from '../../engine/model.ts'
import type { JsonPath } from '../locate.ts'
import { partsFromGemini, partsFromGeminiPart } from '../gemini/parts.ts'
import { isObject, num, utf8Bytes } from '../util.ts'

// Pieces of one recording record: token counts, `content`, a tool call's `result`.

type Json = Record<string, unknown>

/** Keys of a record the canonical model does not carry, kept for the serializer. */
export function extras(obj: Json, known: readonly string[]): Json | undefined {
  let out: Json | undefined
  for (const k of Object.keys(obj)) {
    if (known.includes(k)) continue
    out ??= {}
    out[k] = obj[k]
  }
  return out
}

/** `tokens` → ReportedUsage: `input` is the prompt Gemini CLI sent (cached tokens included). */
export function usageFrom(tokens: unknown): ReportedUsage | undefined {
  if (!isObject(tokens)) return undefined
  const input = num(tokens.input)
  return {
    ...(input !== undefined ? { contextTokens: input } : {}),
    inputTokens: input,
    outputTokens: num(tokens.output),
    cacheReadTokens: num(tokens.cached),
    reasoningTokens: num(tokens.thoughts),
    source: 'gemini-cli tokens',
  }
}

/** `content` (a string, a part, or parts) → canonical parts, remembering which shape it was. */
export function contentParts(
  content: unknown,
  path: JsonPath,
  warn: (p: JsonPath, m: string) => void,
) {
  if (content === undefined) return { parts: [] as Part[], shape: 'missing' }
  if (typeof content === 'string') {
    return {
      parts: content === '' ? [] : [{ kind: 'text', text: content } as Part],
      shape: content === '' ? 'empty' : 'string',
    }
  }
  if (Array.isArray(content)) return { parts: partsFromGemini(content, path, warn), shape: 'array' }
  return { parts: partsFromGeminiPart(content, path, warn), shape: 'part' }
}

/**
 * A tool call's `result` (Gemini parts, usually one functionResponse) → result content. The
 * functionResponse envelope (id, name, response key) stays in `meta` so the serializer can fold
 * the result back into the call exactly.
 */
export function resultContent(
  result: unknown,
  path: JsonPath,
  warn: (p: JsonPath, m: string) => void,
): ResultContent[] {
  if (typeof result === 'string')
    return [{ kind: 'text', text: result, meta: { resultString: true } }]
  const items = Array.isArray(result) ? result : [result]
  const out: ResultContent[] = []
  items.forEach((item, i) => {
    for (const p of partsFromGeminiPart(item, [...path, i], warn)) {
      if (p.kind === 'tool_result') {
        const text = p.content.map((c) => (c.kind === 'text' ? c.text : '')).join('')
        out.push({
          kind: 'text',
          text,
          meta: { functionResponse: { ...p.meta, id: p.callId, name: p.name } },
        })
      } else if (
        p.kind === 'text' ||
        p.kind === 'image' ||
        p.kind === 'file' ||
        p.kind === 'opaque'
      )
        out.push(p)
      else
        out.push({
          kind: 'opaque',
          opaque: { label: `${p.kind} in result`, bytes: utf8Bytes(JSON.stringify(item) ?? '') },
          raw: item,
        })
    }
  })
  return out
}
