import type { Conversation, Message, ToolDefinition } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { partsToGemini } from './parts-out.ts'
import { parseJson } from '../../engine/json.ts'

type Json = Record<string, unknown>

const ROLE_OUT: Record<string, string> = {
  user: 'user',
  assistant: 'model',
  tool: 'user',
  system: 'user',
}

/** A canonical message → a Gemini Content (the original role word restored when it differed). */
export function contentOut(m: Message): Json {
  const original = m.source && 'role' in m.source ? m.source.role : undefined
  const role =
    original === null ? undefined : typeof original === 'string' ? original : ROLE_OUT[m.role]
  return { ...(role !== undefined ? { role } : {}), parts: partsToGemini(m.parts) }
}

function parseRaw(t: ToolDefinition): unknown {
  try {
    return parseJson(t.raw) as unknown
  } catch {
    return { name: t.name, description: t.description }
  }
}

/** Regroup tool definitions into Tool entries as the source grouped them. */
function toolsOut(c: Conversation): Json[] {
  const groups = Array.isArray(c.source?.toolGroups) ? c.source.toolGroups.filter(isObject) : []
  const total = groups.reduce((n, g) => n + (typeof g.count === 'number' ? g.count : 0), 0)
  const defs = c.tools.map(parseRaw)
  if (total === defs.length && groups.length > 0) {
    const out: Json[] = []
    let i = 0
    for (const g of groups) {
      const n = typeof g.count === 'number' ? g.count : 0
      const slice = defs.slice(i, i + n)
      i += n
      const key = str(g.key)
      if (key) out.push({ ...(isObject(g.extras) ? g.extras : {}), [key]: slice })
      else if (isObject(slice[0])) out.push(slice[0])
    }
    return out
  }
  // The tool list changed: declarations (objects with a name) share one entry, built-ins stand alone.
  const decls = defs.filter((d) => isObject(d) && typeof d.name === 'string')
  const builtins = defs.filter((d): d is Json => isObject(d) && typeof d.name !== 'string')
  return [...(decls.length > 0 ? [{ functionDeclarations: decls }] : []), ...builtins]
}

function systemOut(c: Conversation): [string, unknown] | undefined {
  if (c.system.length === 0) return undefined
  const key = str(c.source?.systemKey) ?? 'systemInstruction'
  if (c.source?.systemShape === 'string' && c.system.length === 1)
    return [key, c.system[0]?.text ?? '']
  const envelope = isObject(c.source?.systemEnvelope) ? c.source.systemEnvelope : {}
  return [key, { ...envelope, parts: c.system.map((p) => ({ text: p.text })) }]
}

function responseOut(m: Message): Json {
  const envelope = isObject(m.source?.response) ? m.source.response : {}
  const candidate = isObject(m.source?.candidate) ? m.source.candidate : {}
  const content: Json = { parts: partsToGemini(m.parts) }
  const role = m.source?.contentRole
  if (typeof role === 'string') content.role = role
  return { candidates: [{ content, ...candidate }], ...envelope }
}

/**
 * Write the conversation back in its input shape: request body (envelope, key order, tool grouping,
 * system instruction restored), bare contents array, lone response, or a `[{request, response}]`
 * exchange list when the last turn came from a captured response (keeps usageMetadata).
 */
export function serializeGemini(c: Conversation): string {
  const shape = str(c.source?.shape) ?? 'request'
  const last = c.messages[c.messages.length - 1]
  const response = last?.source?.fromResponse ? last : undefined
  if (shape === 'response' && response && c.messages.length === 1)
    return JSON.stringify(responseOut(response), null, 2)
  const history = response && shape === 'exchange' ? c.messages.slice(0, -1) : c.messages
  const contents = history.map(contentOut)
  if (shape === 'contents') return JSON.stringify(contents, null, 2)
  const envelope = isObject(c.source?.envelope) ? c.source.envelope : {}
  const fields: Json = { ...envelope, contents }
  const system = systemOut(c)
  if (system) fields[system[0]] = system[1]
  if (c.tools.length > 0) fields.tools = toolsOut(c)
  const order = Array.isArray(c.source?.keyOrder)
    ? c.source.keyOrder.filter((k) => typeof k === 'string')
    : []
  const body: Json = {}
  for (const k of order) if (k in fields) body[k] = fields[k]
  for (const [k, v] of Object.entries(fields)) if (!(k in body)) body[k] = v
  if (response && shape === 'exchange') {
    const model = c.meta.model ?? response.model ?? 'gemini'
    const uri =
      str(c.source?.url) ??
      `https://generativelanguage.googleapis.com/v1beta/models/${model}:generateContent`
    return JSON.stringify(
      [
        {
          request: { method: 'POST', uri, body },
          response: { status: 200, body: responseOut(response) },
        },
      ],
      null,
      2,
    )
  }
  return JSON.stringify(body, null, 2)
}
