import type { ReportedUsage, TextPart, ToolDefinition } from '../../engine/model.ts'
import { describe, isObject, num, str } from '../util.ts'
import type { Warn } from './parts.ts'
import { KeyReader } from './parts.ts'

// Request-body pieces around the contents: system instruction, tools, usage metadata.

type Json = Record<string, unknown>

/** `usageMetadata` → ReportedUsage: `promptTokenCount` is the whole prompt (cache included). */
export function usageFrom(
  meta: unknown,
  source = 'gemini usageMetadata',
): ReportedUsage | undefined {
  if (!isObject(meta)) return undefined
  const u = new KeyReader(meta)
  const prompt = num(u.get('promptTokenCount'))
  return {
    ...(prompt !== undefined ? { contextTokens: prompt } : {}),
    inputTokens: prompt,
    outputTokens: num(u.get('candidatesTokenCount')),
    cacheReadTokens: num(u.get('cachedContentTokenCount')),
    reasoningTokens: num(u.get('thoughtsTokenCount')),
    source,
  }
}

export function systemFrom(warn: Warn, body: KeyReader): { parts: TextPart[]; source: Json } {
  const key = 'systemInstruction' in body.obj ? 'systemInstruction' : 'system_instruction'
  const sys = body.obj[key]
  if (sys === undefined) return { parts: [], source: {} }
  if (typeof sys === 'string')
    return {
      parts: [{ kind: 'text', text: sys }],
      source: { systemKey: key, systemShape: 'string' },
    }
  if (!isObject(sys) || !Array.isArray(sys.parts)) {
    warn([key], `expected {parts:[{text}]}, got ${describe(sys)}; ignored`)
    return { parts: [], source: {} }
  }
  const parts: TextPart[] = []
  sys.parts.forEach((p, i) => {
    if (isObject(p) && typeof p.text === 'string') parts.push({ kind: 'text', text: p.text })
    else warn([key, 'parts', i], 'expected a text part {text}; skipped')
  })
  const { parts: _p, ...rest } = sys
  return { parts, source: { systemKey: key, systemEnvelope: rest } }
}

/** Tool entries: each function declaration is one ToolDefinition; grouping kept for the serializer. */
export function toolsFrom(warn: Warn, tools: unknown): { tools: ToolDefinition[]; groups: Json[] } {
  const out: ToolDefinition[] = []
  const groups: Json[] = []
  if (!Array.isArray(tools)) return { tools: out, groups }
  tools.forEach((t, i) => {
    if (!isObject(t)) {
      warn(['tools', i], `expected a Tool object, got ${describe(t)}; skipped`)
      return
    }
    const key =
      'functionDeclarations' in t
        ? 'functionDeclarations'
        : 'function_declarations' in t
          ? 'function_declarations'
          : null
    const decls = key ? t[key] : undefined
    if (key && Array.isArray(decls)) {
      const { [key]: _d, ...rest } = t
      groups.push({ key, count: decls.length, extras: rest })
      for (const d of decls) {
        const name = isObject(d) ? str(d.name) : undefined
        const description = isObject(d) ? str(d.description) : undefined
        out.push({
          name: name ?? '(unnamed)',
          ...(description ? { description } : {}),
          raw: JSON.stringify(d),
        })
      }
    } else {
      // Built-in tools ({googleSearch:{}}, {codeExecution:{}}): the entry itself is the definition.
      groups.push({ key: null, count: 1 })
      out.push({ name: Object.keys(t)[0] ?? '(empty tool)', raw: JSON.stringify(t) })
    }
  })
  return { tools: out, groups }
}
