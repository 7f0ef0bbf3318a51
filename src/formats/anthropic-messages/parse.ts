import type {
  Conversation,
  Part,
  Role,
  TextPart,
  ToolDefinition,
  UpstreamMarker,
} from '../../engine/model.ts'
import type { ParseResult, SniffedInput } from '../types.ts'
import {
  describe,
  fail,
  failAtInput,
  isObject,
  looksLikeSse,
  num,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { extras, partFromBlock } from './blocks.ts'
import { compactTrigger, systemFrom, toolsFrom, usageFrom } from './body.ts'
import type { JsonPath } from '../locate.ts'
import { JsonBuilder } from '../locate.ts'
import { reassembleStream } from './sse.ts'
import { newMessage } from '../shapes.ts'

/** Fields of a request body that become canonical data; everything else is the envelope. */
const BODY_FIELDS = ['messages', 'system', 'tools']

class Builder extends JsonBuilder {
  readonly markers: UpstreamMarker[] = []
  compactTrigger: string | undefined

  /** One `{role, content}` message; an unusable one is skipped with a warning. */
  addMessage(
    raw: unknown,
    path: JsonPath,
    extra?: { id?: string; source?: Record<string, unknown> },
  ): void {
    if (!isObject(raw)) {
      this.warn(
        path,
        `expected a message object with \`role\` and \`content\`, got ${describe(raw)}; skipped`,
      )
      return
    }
    const role = str(raw.role)
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      this.warn(
        path,
        `expected \`role\` "user" or "assistant", got ${JSON.stringify(raw.role) ?? 'nothing'}; skipped`,
      )
      return
    }
    const content = raw.content
    let parts: Part[]
    let contentShape: string | undefined
    if (typeof content === 'string') {
      parts = [{ kind: 'text', text: content }]
      contentShape = 'string'
    } else if (Array.isArray(content)) {
      parts = content.map((b, j) => partFromBlock(b, [...path, 'content', j], this.warn))
    } else {
      this.warn(
        path,
        `expected \`content\` to be a string or an array of blocks, got ${describe(content)}; skipped`,
      )
      return
    }
    const index = this.messages.length
    for (const p of parts) {
      if (p.kind === 'text' && p.meta?.blockType === 'compaction') {
        this.markers.push({
          kind: 'upstream_compaction',
          beforeIndex: index,
          origin: 'anthropic-compaction',
          summary: p.text,
          ...(this.compactTrigger ? { trigger: this.compactTrigger } : {}),
        })
      }
    }
    const msgExtras = extras(raw, ['role', 'content'])
    const source = {
      ...(contentShape ? { contentShape } : {}),
      ...(msgExtras ? { extras: msgExtras } : {}),
      ...extra?.source,
    }
    this.messages.push(
      newMessage({
        id: this.ids.next(extra?.id, index),
        role: role as Role,
        parts,
        source: Object.keys(source).length > 0 ? source : undefined,
      }),
    )
  }

  /** Append a `{type:'message'}` response as the assistant's last turn, with its usage. */
  addResponse(response: Record<string, unknown>, path: JsonPath): void {
    const before = this.messages.length
    const { content: _c, ...envelope } = response
    this.addMessage({ role: 'assistant', content: response.content }, path, {
      id: str(response.id),
      source: { fromResponse: true, response: envelope },
    })
    const msg = this.messages[before]
    if (!msg) return
    const usage = usageFrom(response.usage)
    const compaction =
      isObject(response.usage) && Array.isArray(response.usage.iterations)
        ? response.usage.iterations.find((it) => isObject(it) && it.type === 'compaction')
        : undefined
    this.messages[before] = {
      ...msg,
      ...(str(response.model) ? { model: str(response.model) } : {}),
      ...(usage ? { usage } : {}),
    }
    // The usage iterations say how big the prompt was when the server compacted it.
    const pre = isObject(compaction) ? num(compaction.input_tokens) : undefined
    if (pre !== undefined) {
      for (let i = 0; i < this.markers.length; i++) {
        const m = this.markers[i]
        if (m && m.beforeIndex === before) this.markers[i] = { ...m, preTokens: pre }
      }
    }
  }
}

/** Parse any Anthropic Messages input: request, request+response, response, stream, messages. */
export function parseAnthropic(input: SniffedInput): ParseResult {
  const b = new Builder(input)
  if (input.kind === 'text') {
    if (!looksLikeSse(input.text)) {
      const e = input.jsonError
      return failAtInput(
        input,
        e
          ? `expected an Anthropic Messages JSON body: ${e.message}`
          : 'expected an Anthropic Messages JSON body or an SSE stream, got plain text',
      )
    }
    const { message, problems } = reassembleStream(input.text)
    for (const p of problems) b.warnings.push(warning(0, 0, `stream: ${p}`))
    if (!message)
      return fail(
        parseError(
          1,
          0,
          'expected Anthropic stream events (message_start, content_block_*), found none',
        ),
        b.warnings,
      )
    b.addResponse(message, [])
    return finish(b, { shape: 'response', stream: true }, [], [], undefined, [
      'reassembled from an SSE stream',
    ])
  }
  if (input.kind === 'jsonl') {
    const second = input.lines[1] ?? input.lines[0]
    return fail(
      parseError(
        second?.line ?? 1,
        second?.offset ?? 0,
        'expected one JSON document (an Anthropic request body), got JSON Lines',
      ),
      [...input.bad],
    )
  }
  const value = input.value
  if (Array.isArray(value)) {
    value.forEach((m, i) => b.addMessage(m, [i]))
    return finish(b, { shape: 'messages' }, [], [])
  }
  if (!isObject(value)) {
    return fail(
      parseError(
        1,
        0,
        `expected an Anthropic request object with \`messages\`, got ${describe(value)}`,
      ),
    )
  }
  if (value.type === 'message' && Array.isArray(value.content)) {
    b.addResponse(value, [])
    return finish(b, { shape: 'response' }, [], [], undefined, [
      'a single response: one assistant turn, not a whole conversation',
    ])
  }
  if (!Array.isArray(value.messages)) {
    const at = b.locator.at(['messages'])
    return fail(
      parseError(
        at.line || 1,
        at.offset,
        `expected \`messages\` to be an array of {role, content}, got ${describe(value.messages)}`,
      ),
    )
  }
  b.compactTrigger = compactTrigger(value)
  const system = systemFrom(b.warn, value.system)
  const tools = toolsFrom(b.warn, value.tools)
  value.messages.forEach((m, i) => b.addMessage(m, ['messages', i]))
  const envelope: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (!BODY_FIELDS.includes(k)) envelope[k] = v
  const source: Record<string, unknown> = {
    shape: 'request',
    envelope,
    keyOrder: Object.keys(value),
    ...(system.shape ? { systemShape: system.shape } : {}),
  }
  const notes: string[] = []
  const ex = input.exchange
  if (ex) {
    source.shape = 'exchange'
    source.url = ex.url
    notes.push(`unwrapped from a ${ex.wrapper} capture: request ${ex.used} of ${ex.count}`)
    const res = ex.response
    if (isObject(res) && res.type === 'message' && Array.isArray(res.content))
      b.addResponse(res, [])
    else if (looksLikeSse(res)) {
      const { message, problems } = reassembleStream(res)
      for (const p of problems) b.warnings.push(warning(0, 0, `response stream: ${p}`))
      if (message) b.addResponse(message, [])
      notes.push('response reassembled from an SSE stream')
    } else if (res !== undefined) {
      b.warnings.push(
        warning(
          0,
          0,
          `the captured response is not an Anthropic message (got ${describe(res)}${
            isObject(res) && str(res.type) ? ` of type "${str(res.type)}"` : ''
          }); only the request was loaded`,
        ),
      )
    }
    if (!b.messages.some((m) => m.source?.fromResponse)) source.shape = 'request'
  }
  return finish(b, source, system.parts, tools, str(value.model), notes, ex?.wrapper)
}

function finish(
  b: Builder,
  source: Record<string, unknown>,
  system: TextPart[],
  tools: ToolDefinition[],
  model?: string,
  notes: string[] = [],
  wrapper?: string,
): ParseResult {
  if (b.messages.length === 0) {
    return fail(
      parseError(
        b.warnings[0]?.line ?? 1,
        b.warnings[0]?.offset ?? 0,
        'expected at least one usable message ({role:"user"|"assistant", content}); none found',
      ),
      b.warnings,
    )
  }
  const responseModel = b.messages.find((m) => m.model)?.model
  const conversation: Conversation = {
    meta: {
      format: 'anthropic-messages',
      ...((model ?? responseModel) ? { model: model ?? responseModel } : {}),
      ...(wrapper ? { wrapper } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    },
    system,
    tools,
    messages: b.messages,
    markers: b.markers,
    source,
  }
  return ok(conversation, b.warnings)
}
