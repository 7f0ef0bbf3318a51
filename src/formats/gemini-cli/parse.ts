import type {
  Conversation,
  ReasoningPart,
  ToolCallPart,
  ToolResultPart,
} from '../../engine/model.ts'
import type { JsonPath } from '../locate.ts'
import { JsonBuilder } from '../locate.ts'
import type { ParseResult, SniffedInput } from '../types.ts'
import { contentParts, extras, resultContent, usageFrom } from './records.ts'
import {
  callFromObjectArgs,
  describe,
  fail,
  failAtInput,
  isObject,
  ok,
  parseError,
  str,
} from '../util.ts'

type Json = Record<string, unknown>

/** A record that is not a model message (info, error…), kept where it was for the serializer. */
export interface AsideRecord {
  /** Position in the recording's `messages`: the serializer merges by it. */
  readonly index: number
  readonly record: unknown
}

const USER_KEYS = ['id', 'timestamp', 'type', 'content']
const GEMINI_KEYS = [
  'id',
  'timestamp',
  'type',
  'content',
  'thoughts',
  'tokens',
  'model',
  'toolCalls',
]
const CALL_KEYS = ['id', 'name', 'args', 'result', 'status']

class Builder extends JsonBuilder {
  readonly aside: AsideRecord[] = []
  readonly asideTypes = new Map<string, number>()

  keepAside(record: unknown, type: string, index: number): void {
    this.aside.push({ index, record })
    this.asideTypes.set(type, (this.asideTypes.get(type) ?? 0) + 1)
  }

  user(rec: Json, path: JsonPath, index: number): void {
    const { parts, shape } = contentParts(rec.content, [...path, 'content'], this.warn)
    const ex = extras(rec, USER_KEYS)
    this.messages.push({
      id: this.ids.next(str(rec.id), this.messages.length),
      role: 'user',
      parts,
      ...(str(rec.timestamp) ? { timestamp: str(rec.timestamp) } : {}),
      source: {
        recordIndex: index,
        contentShape: shape,
        keyOrder: Object.keys(rec),
        ...(ex ? { extras: ex } : {}),
      },
    })
  }

  gemini(rec: Json, path: JsonPath, index: number): void {
    const thoughts: ReasoningPart[] = []
    if (rec.thoughts !== undefined && !Array.isArray(rec.thoughts))
      this.warn([...path, 'thoughts'], `expected an array, got ${describe(rec.thoughts)}; ignored`)
    for (const t of Array.isArray(rec.thoughts) ? rec.thoughts : []) {
      const th = isObject(t) ? t : {}
      const ex = extras(th, ['subject', 'description'])
      thoughts.push({
        kind: 'reasoning',
        text: str(th.description) ?? '',
        textKind: 'summary',
        meta: { subject: th.subject, ...(ex ? { extras: ex } : {}) },
      })
    }
    const { parts: content, shape } = contentParts(rec.content, [...path, 'content'], this.warn)
    const calls: ToolCallPart[] = []
    const results: { part: ToolResultPart; timestamp?: string }[] = []
    const toolCalls = rec.toolCalls
    if (toolCalls !== undefined && !Array.isArray(toolCalls))
      this.warn([...path, 'toolCalls'], `expected an array, got ${describe(toolCalls)}; ignored`)
    ;(Array.isArray(toolCalls) ? toolCalls : []).forEach((tc, j) => {
      const cp = [...path, 'toolCalls', j]
      if (!isObject(tc)) {
        this.warn(
          cp,
          `expected a tool call object {id, name, args, result}, got ${describe(tc)}; skipped`,
        )
        return
      }
      const name = str(tc.name)
      if (name === undefined) this.warn(cp, 'expected `name` (a string) on the tool call')
      const callId = typeof tc.id === 'string' ? tc.id : null
      const ex = extras(tc, CALL_KEYS)
      const meta = {
        keyOrder: Object.keys(tc),
        ...(tc.status !== undefined ? { status: tc.status } : {}),
        ...(ex ? { extras: ex } : {}),
      }
      calls.push({ ...callFromObjectArgs({ callId, name: name ?? '' }, tc.args), meta })
      // Call and result share one record; the result becomes its own tool message (README rule).
      if (tc.result === undefined || tc.result === null) return
      results.push({
        part: {
          kind: 'tool_result',
          callId,
          name: name ?? '',
          content: resultContent(tc.result, [...cp, 'result'], this.warn),
          isError: tc.status === 'error',
        },
        timestamp: str(tc.timestamp),
      })
    })
    const ex = extras(rec, GEMINI_KEYS)
    const usage = usageFrom(rec.tokens)
    const id = this.ids.next(str(rec.id), this.messages.length)
    this.messages.push({
      id,
      role: 'assistant',
      parts: [...thoughts, ...content, ...calls],
      ...(str(rec.model) ? { model: str(rec.model) } : {}),
      ...(str(rec.timestamp) ? { timestamp: str(rec.timestamp) } : {}),
      ...(usage ? { usage } : {}),
      source: {
        recordIndex: index,
        contentShape: shape,
        keyOrder: Object.keys(rec),
        ...(rec.tokens !== undefined ? { tokens: rec.tokens } : {}),
        ...(Array.isArray(rec.thoughts) ? { hasThoughts: true } : {}),
        ...(Array.isArray(toolCalls) ? { hasToolCalls: true } : {}),
        ...(ex ? { extras: ex } : {}),
      },
    })
    results.forEach(({ part, timestamp }, j) => {
      this.messages.push({
        id: this.ids.next(`${id}/${part.callId ?? j}`, this.messages.length),
        role: 'tool',
        parts: [part],
        ...(timestamp ? { timestamp } : {}),
        source: { foldedInto: id },
      })
    })
  }
}

/** Parse a Gemini CLI chat recording (`~/.gemini/tmp/<projectHash>/chats/session-*.json`). */
export function parseGeminiCli(input: SniffedInput): ParseResult {
  if (input.kind !== 'json') {
    const e = input.kind === 'text' ? input.jsonError : undefined
    return failAtInput(
      input,
      `expected a Gemini CLI session JSON object {sessionId, projectHash, messages}${e ? `: ${e.message}` : `, got ${input.kind === 'jsonl' ? 'JSON Lines' : 'plain text'}`}`,
    )
  }
  const b = new Builder(input)
  const v = input.value
  if (!isObject(v))
    return fail(
      parseError(
        1,
        0,
        `expected a Gemini CLI session object {sessionId, projectHash, messages}, got ${describe(v)}`,
      ),
    )
  if (!Array.isArray(v.messages)) {
    const at = b.locator.at(['messages'])
    return fail(
      parseError(
        at.line || 1,
        at.offset,
        `expected \`messages\` to be an array of records, got ${describe(v.messages)}`,
      ),
    )
  }
  v.messages.forEach((rec, i) => {
    const path = ['messages', i]
    if (!isObject(rec) || typeof rec.type !== 'string') {
      b.warn(
        path,
        `expected a record object with a string \`type\`, got ${isObject(rec) ? 'no type' : describe(rec)}; kept aside`,
      )
      b.keepAside(rec, 'invalid', i)
      return
    }
    if (rec.type === 'user') b.user(rec, path, i)
    else if (rec.type === 'gemini') b.gemini(rec, path, i)
    else b.keepAside(rec, rec.type, i)
  })
  if (b.messages.length === 0) {
    return fail(
      parseError(
        b.warnings[0]?.line ?? 1,
        b.warnings[0]?.offset ?? 0,
        'expected at least one record of type "user" or "gemini"; none found',
      ),
      b.warnings,
    )
  }
  const { messages: _m, ...envelope } = v
  const notes: string[] = []
  if (b.aside.length > 0) {
    const counts = [...b.asideTypes.entries()].map(([t, n]) => `${n} ${t}`).join(', ')
    notes.push(`${counts} record(s) kept aside: shown by the CLI, not sent to the model`)
  }
  const conversation: Conversation = {
    meta: {
      format: 'gemini-cli',
      ...(str(v.sessionId) ? { sessionId: str(v.sessionId) } : {}),
      ...(b.messages.find((m) => m.model)?.model
        ? { model: b.messages.find((m) => m.model)?.model }
        : {}),
      ...(notes.length > 0 ? { notes } : {}),
    },
    system: [],
    tools: [],
    messages: b.messages,
    markers: [],
    source: { envelope, keyOrder: Object.keys(v), aside: b.aside },
  }
  return ok(conversation, b.warnings)
}
