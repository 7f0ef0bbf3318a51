import type { Conversation, Message, ToolDefinition } from '../../engine/model.ts'
import type { ImportOptions, ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  arr,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  keysOf,
  looksLikeSse,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { exchangeNote, unwrapCapture } from './exchange.ts'
import type { JsonPath } from '../locate.ts'
import { bodyLocator } from '../locate.ts'
import { parseChatMessage } from './messages.ts'
import { isChatChunkStream } from './stream.ts'
import { appendResponse } from './response.ts'
import { pushAll } from '../../engine/arrays.ts'

/** How the input was shaped: the serializer writes the same shape back. */
export type ChatMode = 'messages' | 'request' | 'response' | 'tau-bench' | 'jsonl'

/** Where one raw message came from, for positioned warnings. */
interface RawMessage {
  readonly value: unknown
  readonly at: () => { line: number; offset: number }
}

export function toolsFromChat(tools: unknown, legacy: unknown): ToolDefinition[] {
  const out: ToolDefinition[] = []
  for (const t of arr(tools)) {
    const fn = isObject(t)
      ? isObject(t.function)
        ? t.function
        : isObject(t.custom)
          ? t.custom
          : t
      : {}
    const name = str(fn.name) ?? (isObject(t) ? str(t.type) : undefined) ?? 'tool'
    const description = str(fn.description)
    out.push({
      name,
      ...(description !== undefined ? { description } : {}),
      raw: JSON.stringify(t),
    })
  }
  // Legacy `functions` (pre-tools API): definitions sit directly in the list.
  for (const f of arr(legacy)) {
    const name = isObject(f) ? (str(f.name) ?? 'function') : 'function'
    out.push({ name, raw: JSON.stringify(f) })
  }
  return out
}

/** Parse any Chat Completions input: messages array, request, response, stream, tau-bench, JSONL. */
export function parseChat(raw: SniffedInput, _options?: ImportOptions): ParseResult {
  const input = unwrapCapture(raw)
  const warnings: ParseWarning[] = []
  const notes: string[] = []
  const locate = bodyLocator(input)
  let mode: ChatMode
  let rawMessages: RawMessage[] = []
  let body: Record<string, unknown> | undefined
  let response: unknown
  let tauEnvelope: Record<string, unknown> | undefined
  let wrapper: string | undefined
  const at = (path: JsonPath) => () => locate('request', path)

  if (input.kind === 'text') {
    if (!(looksLikeSse(input.text) && isChatChunkStream(input.text))) {
      return failAtInput(
        input,
        input.jsonError?.message ??
          'expected Chat Completions JSON (a messages array, request or response body), got plain text',
      )
    }
    mode = 'response'
    response = input.text
  } else if (input.kind === 'jsonl') {
    mode = 'jsonl'
    pushAll(warnings, input.bad)
    rawMessages = input.lines.map((l) => ({
      value: l.value,
      at: () => ({ line: l.line, offset: l.offset }),
    }))
  } else {
    const value = input.value
    if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((e) => isObject(e) && Array.isArray(e.traj))
    ) {
      mode = 'tau-bench'
      wrapper = 'tau-bench'
      const first = value[0] as Record<string, unknown>
      const { traj, ...envelope } = first
      tauEnvelope = envelope
      rawMessages = arr(traj).map((m, i) => ({ value: m, at: at([0, 'traj', i]) }))
      // The others are items of the file (items.ts): the import panel and `--item N` open them.
      if (value.length > 1)
        notes.push(
          `tau-bench result #1 of ${value.length}: task_id ${String(first.task_id)}, reward ${String(first.reward)}; the other ${value.length - 1} open from the item list (CLI: --item N)`,
        )
    } else if (Array.isArray(value)) {
      mode = 'messages'
      rawMessages = value.map((m, i) => ({ value: m, at: at([i]) }))
    } else if (isObject(value) && Array.isArray(value.messages)) {
      mode = 'request'
      body = value
      rawMessages = value.messages.map((m, i) => ({ value: m, at: at(['messages', i]) }))
      if (input.exchange) {
        wrapper = input.exchange.wrapper
        notes.push(exchangeNote(input.exchange))
        response = input.exchange.response
      }
    } else if (isObject(value) && Array.isArray(value.choices)) {
      mode = 'response'
      response = value
    } else {
      const where = input.exchange ? locate('request', []) : { line: 0, offset: 0 }
      const got =
        isObject(value) && 'messages' in value
          ? 'an object whose `messages` is not an array'
          : keysOf(value)
      return fail(
        parseError(
          where.line,
          where.offset,
          `expected a Chat Completions request ({model, messages:[…]}), a response ({choices:[…]}), or a messages array; got ${got}`,
        ),
      )
    }
  }

  const ids = new IdAllocator()
  const messages: Message[] = []
  rawMessages.forEach((rm, i) => {
    const problems: string[] = []
    // Fallback ids count kept messages only, so they survive serialize → parse after skips.
    const outcome = parseChatMessage(rm.value, ids.next(undefined, messages.length), problems)
    const pos = problems.length > 0 || !outcome.ok ? rm.at() : undefined
    for (const p of problems)
      warnings.push(warning(pos?.line ?? 0, pos?.offset ?? 0, `message ${i}: ${p}`))
    if (outcome.ok) {
      messages.push(
        mode === 'jsonl' ? { ...outcome.message, line: pos?.line ?? lineOf(rm) } : outcome.message,
      )
    } else {
      warnings.push(
        warning(pos?.line ?? 0, pos?.offset ?? 0, `message ${i} skipped: ${outcome.problem}`),
      )
    }
  })

  let responseEnvelope: Record<string, unknown> | undefined
  if (response !== undefined) {
    const r = appendResponse(response, ids, messages.length, messages, warnings, notes, () =>
      locate('response', []),
    )
    responseEnvelope = r
  }
  if (messages.length === 0) {
    const first = warnings[0]
    return fail(
      parseError(
        first?.line ?? 0,
        first?.offset ?? 0,
        `no usable message: ${first ? first.message : 'the conversation is empty'}`,
      ),
      warnings,
    )
  }

  const model = str(body?.model) ?? str(responseEnvelope?.model)
  const { messages: _m, tools, functions, ...requestRest } = body ?? {}
  const conversation: Conversation = {
    meta: {
      format: 'openai-chat',
      ...(model !== undefined ? { model } : {}),
      ...(wrapper !== undefined ? { wrapper } : {}),
      ...(notes.length ? { notes } : {}),
    },
    system: [],
    tools: toolsFromChat(tools, functions),
    messages,
    markers: [],
    source: {
      mode,
      ...(body ? { request: requestRest, legacyFunctions: Array.isArray(functions) } : {}),
      ...(responseEnvelope ? { response: responseEnvelope } : {}),
      ...(tauEnvelope ? { tauBench: tauEnvelope } : {}),
      ...(input.kind === 'json' && input.exchange?.url ? { url: input.exchange.url } : {}),
    },
  }
  return ok(conversation, warnings)
}

function lineOf(rm: RawMessage): number {
  return rm.at().line
}
