import type { Conversation, Message, Role, TextPart, ToolDefinition } from '../../engine/model.ts'
import type { JsonPath } from '../locate.ts'
import { JsonBuilder } from '../locate.ts'
import type { ParseResult, SniffedInput } from '../types.ts'
import {
  describe,
  fail,
  failAtInput,
  isObject,
  looksLikeSse,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { systemFrom, toolsFrom, usageFrom } from './body.ts'
import { KeyReader, partsFromGemini } from './parts.ts'
import { chunksFromSse, mergeChunks } from './stream.ts'

type Json = Record<string, unknown>

/** Fields of a request that become canonical data; the rest is the envelope. */
const BODY_FIELDS = ['contents', 'systemInstruction', 'system_instruction', 'tools']

const ROLE_MAP: Record<string, Role> = {
  user: 'user',
  model: 'assistant',
  function: 'tool',
  tool: 'tool',
  system: 'system',
}

class Builder extends JsonBuilder {
  /** One `{role, parts}` Content; role `model` → assistant, `function`/`tool` → tool. */
  addContent(
    raw: unknown,
    path: JsonPath,
    extra?: { id?: string; source?: Json },
  ): Message | undefined {
    if (!isObject(raw)) {
      this.warn(path, `expected a Content object {role, parts}, got ${describe(raw)}; skipped`)
      return undefined
    }
    const roleText = str(raw.role)
    if (raw.role !== undefined && roleText === undefined)
      this.warn(path, `expected \`role\` to be a string, got ${describe(raw.role)}; read as "user"`)
    const role = roleText === undefined ? 'user' : ROLE_MAP[roleText]
    if (!role) {
      this.warn(
        path,
        `expected \`role\` "user" or "model", got ${JSON.stringify(raw.role)}; skipped`,
      )
      return undefined
    }
    if (!Array.isArray(raw.parts)) {
      this.warn(path, `expected \`parts\` to be an array, got ${describe(raw.parts)}; skipped`)
      return undefined
    }
    const parts = partsFromGemini(raw.parts, [...path, 'parts'], this.warn)
    const source: Json = { ...extra?.source }
    // Keep the original role word where the mapping is not one-to-one (function/tool, absent).
    if (roleText !== 'user' && roleText !== 'model') source.role = roleText ?? null
    const index = this.messages.length
    const message: Message = {
      id: this.ids.next(extra?.id, index),
      role,
      parts,
      ...(Object.keys(source).length > 0 ? { source } : {}),
    }
    this.messages.push(message)
    return message
  }

  /** Append `candidates[0].content` of a response as the model's turn, with its usage. */
  addResponse(response: Json, path: JsonPath): boolean {
    const r = new KeyReader(response)
    const candidates = r.get('candidates')
    const first = Array.isArray(candidates) ? candidates[0] : undefined
    if (!isObject(first) || !isObject(first.content)) {
      const feedback = r.get('promptFeedback')
      this.warn(
        path,
        `response has no candidate content${isObject(feedback) ? ` (promptFeedback: ${JSON.stringify(feedback)})` : ''}; not added`,
      )
      return false
    }
    const { candidates: _c, ...envelope } = response
    const { content, ...candidate } = first
    // A candidate's content is the model's turn whatever its (missing or malformed) role says.
    const msg = this.addContent(
      { ...content, role: typeof content.role === 'string' ? content.role : 'model' },
      [...path, 'candidates', 0, 'content'],
      {
        id: str(r.get('responseId')),
        source: { fromResponse: true, response: envelope, candidate, contentRole: content.role },
      },
    )
    if (!msg) return false
    const usage = usageFrom(r.get('usageMetadata'))
    const model = str(r.get('modelVersion'))
    this.messages[this.messages.length - 1] = {
      ...msg,
      ...(model ? { model } : {}),
      ...(usage ? { usage } : {}),
    }
    return true
  }

  /** A streamed response (chunks): merged, problems become warnings. */
  addStream(chunks: readonly unknown[], label: string): boolean {
    const { response, problems } = mergeChunks(chunks)
    for (const p of problems) this.warnings.push(warning(0, 0, `${label}: ${p}`))
    return response ? this.addResponse(response, []) : false
  }
}

/** Parse a Gemini generateContent request, response, stream, exchange or bare contents array. */
export function parseGemini(input: SniffedInput): ParseResult {
  const b = new Builder(input)
  if (input.kind === 'text') {
    if (!looksLikeSse(input.text)) {
      const e = input.jsonError
      return failAtInput(
        input,
        e
          ? `expected a Gemini JSON body: ${e.message}`
          : 'expected a Gemini generateContent JSON body or an SSE stream, got plain text',
      )
    }
    const { chunks, problems } = chunksFromSse(input.text)
    for (const p of problems) b.warnings.push(warning(0, 0, `stream: ${p}`))
    b.addStream(chunks, 'stream')
    return finish(b, { shape: 'response' }, [], [], ['reassembled from an SSE stream'])
  }
  if (input.kind === 'jsonl') {
    const second = input.lines[1] ?? input.lines[0]
    return fail(
      parseError(
        second?.line ?? 1,
        second?.offset ?? 0,
        'expected one JSON document (a Gemini request body), got JSON Lines',
      ),
      [...input.bad],
    )
  }
  const value = input.value
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((c) => isObject(c) && new KeyReader(c).has('candidates'))) {
      b.addStream(value, 'response chunks')
      return finish(b, { shape: 'response' }, [], [], ['merged from streamed response chunks'])
    }
    value.forEach((c, i) => b.addContent(c, [i]))
    return finish(b, { shape: 'contents' }, [], [], [])
  }
  if (!isObject(value))
    return fail(
      parseError(
        1,
        0,
        `expected a Gemini request object with \`contents\`, got ${describe(value)}`,
      ),
    )
  const body = new KeyReader(value)
  if (!body.has('contents') && body.has('candidates')) {
    b.addResponse(value, [])
    return finish(
      b,
      { shape: 'response' },
      [],
      [],
      ['a single response: one model turn, not a whole conversation'],
    )
  }
  const contents = value.contents
  if (!Array.isArray(contents)) {
    const at = b.locator.at(['contents'])
    return fail(
      parseError(
        at.line || 1,
        at.offset,
        `expected \`contents\` to be an array of {role, parts}, got ${describe(contents)}`,
      ),
    )
  }
  const system = systemFrom(b.warn, body)
  const { tools, groups } = toolsFrom(b.warn, value.tools)
  contents.forEach((c, i) => b.addContent(c, ['contents', i]))
  const envelope: Json = {}
  for (const [k, v] of Object.entries(value)) if (!BODY_FIELDS.includes(k)) envelope[k] = v
  const source: Json = {
    shape: 'request',
    envelope,
    keyOrder: Object.keys(value),
    toolGroups: groups,
    ...system.source,
  }
  const notes: string[] = []
  const ex = input.exchange
  if (ex) {
    source.url = ex.url
    notes.push(`unwrapped from a ${ex.wrapper} capture: request ${ex.used} of ${ex.count}`)
    const res = ex.response
    let added = false
    if (isObject(res)) added = b.addResponse(res, [])
    else if (Array.isArray(res)) added = b.addStream(res, 'response chunks')
    else if (looksLikeSse(res)) {
      const { chunks, problems } = chunksFromSse(res)
      for (const p of problems) b.warnings.push(warning(0, 0, `response stream: ${p}`))
      added = b.addStream(chunks, 'response stream')
      notes.push('response reassembled from an SSE stream')
    } else if (res !== undefined) {
      b.warnings.push(
        warning(
          0,
          0,
          `the captured response is not a Gemini response (got ${describe(res)}); only the request was loaded`,
        ),
      )
    }
    if (added) source.shape = 'exchange'
  }
  const model = ex?.url ? /\/models\/([^/:?]+)/.exec(ex.url)?.[1] : str(value.model)
  return finish(b, source, system.parts, tools, notes, model, ex?.wrapper)
}

function finish(
  b: Builder,
  source: Json,
  system: TextPart[],
  tools: ToolDefinition[],
  notes: string[],
  model?: string,
  wrapper?: string,
): ParseResult {
  if (b.messages.length === 0) {
    const first = b.warnings[0]
    return fail(
      parseError(
        first?.line ?? 1,
        first?.offset ?? 0,
        'expected at least one usable Content ({role:"user"|"model", parts:[…]}); none found',
      ),
      b.warnings,
    )
  }
  const m = model ?? b.messages.find((x) => x.model)?.model
  const conversation: Conversation = {
    meta: {
      format: 'gemini',
      ...(m ? { model: m } : {}),
      ...(wrapper ? { wrapper } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    },
    system,
    tools,
    messages: b.messages,
    markers: [],
    source,
  }
  return ok(conversation, b.warnings)
}
