import type {
  Conversation,
  Message,
  TextPart,
  ToolDefinition,
  UpstreamMarker,
} from '../../engine/model.ts'
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
import { exchangeNote, unwrapCapture } from '../openai-chat/exchange.ts'
import { bodyLocator } from '../locate.ts'
import { parseResponseItems } from './items.ts'
import { isResponsesStream } from './stream.ts'
import { appendOutput } from './output.ts'

/** How the input was shaped: the serializer writes the same shape back. */
export type ResponsesMode = 'request' | 'response' | 'items'

export function toolsFromResponses(tools: unknown): ToolDefinition[] {
  return arr(tools).map((t) => {
    const o = isObject(t) ? t : {}
    // Flat function tools carry `name`; built-ins (web_search, file_search…) are named by type.
    const name = str(o.name) ?? str(o.server_label) ?? str(o.type) ?? 'tool'
    const description = str(o.description)
    return { name, ...(description !== undefined ? { description } : {}), raw: JSON.stringify(t) }
  })
}

export function parseResponses(raw: SniffedInput, _options?: ImportOptions): ParseResult {
  const input = unwrapCapture(raw)
  const warnings: ParseWarning[] = []
  const notes: string[] = []
  const locate = bodyLocator(input)
  let mode: ResponsesMode
  let body: Record<string, unknown> | undefined
  let response: unknown
  let items: readonly unknown[] = []
  let inputString = false

  if (input.kind === 'jsonl') {
    const first = input.lines[0]
    return fail(
      parseError(
        first?.line ?? 1,
        first?.offset ?? 0,
        'expected one Responses JSON document (request, response or item array), got JSON Lines (a Codex rollout? use the Codex importer)',
      ),
    )
  }
  if (input.kind === 'text') {
    if (!(looksLikeSse(input.text) && isResponsesStream(input.text))) {
      return failAtInput(
        input,
        input.jsonError?.message ??
          'expected Responses JSON (request with `input`, response with `output`) or an SSE stream, got plain text',
      )
    }
    mode = 'response'
    response = input.text
  } else {
    const value = input.value
    if (Array.isArray(value)) {
      mode = 'items'
      items = value
    } else if (isObject(value) && value.input !== undefined) {
      mode = 'request'
      body = value
      if (typeof value.input === 'string') {
        inputString = true
        items = [{ role: 'user', content: value.input }]
      } else if (Array.isArray(value.input)) items = value.input
      else {
        const p = locate('request', ['input'])
        return fail(
          parseError(
            p.line,
            p.offset,
            `expected \`input\` to be a string or an array of items, got ${keysOf(value.input)}`,
          ),
        )
      }
      if (input.exchange) {
        notes.push(exchangeNote(input.exchange))
        response = input.exchange.response
      }
    } else if (isObject(value) && Array.isArray(value.output)) {
      mode = 'response'
      response = value
    } else {
      return fail(
        parseError(
          0,
          0,
          `expected a Responses request ({model, input}), a response ({object:"response", output:[…]}) or an array of items; got ${keysOf(value)}`,
        ),
      )
    }
  }

  const ids = new IdAllocator()
  const inputPath = mode === 'items' ? [] : ['input']
  const parsed = parseResponseItems(items, {
    ids,
    indexBase: 0,
    messageBase: 0,
    warn: (i, message) => {
      const p = inputString ? locate('request', ['input']) : locate('request', [...inputPath, i])
      warnings.push(
        warning(p.line, p.offset, `${mode === 'items' ? 'item' : 'input'}[${i}]: ${message}`),
      )
    },
  })
  const messages: Message[] = [...parsed.messages]
  const markers: UpstreamMarker[] = [...parsed.markers]

  let envelope: Record<string, unknown> | undefined
  if (response !== undefined) {
    envelope = appendOutput(
      response,
      parsed.accepted,
      ids,
      messages,
      markers,
      warnings,
      notes,
      locate,
    )
  } else if (input.kind === 'json' && input.exchange) {
    notes.push('the capture has no response body: the final model turn is missing')
  }
  if (messages.length === 0) {
    const first = warnings[0]
    return fail(
      parseError(
        first?.line ?? 0,
        first?.offset ?? 0,
        `no usable item: ${first ? first.message : 'the conversation is empty'}`,
      ),
      warnings,
    )
  }

  const system: TextPart[] =
    typeof body?.instructions === 'string' && body.instructions !== ''
      ? [{ kind: 'text', text: body.instructions }]
      : []
  const historyIncomplete = serverHistory(body)
  const model = str(body?.model) ?? str(envelope?.model)
  const { input: _i, tools, instructions, ...requestRest } = body ?? {}
  const conversation: Conversation = {
    meta: {
      format: 'openai-responses',
      ...(model !== undefined ? { model } : {}),
      ...(historyIncomplete ? { historyIncomplete } : {}),
      ...(input.kind === 'json' && input.exchange ? { wrapper: input.exchange.wrapper } : {}),
      ...(notes.length ? { notes } : {}),
    },
    system,
    tools: toolsFromResponses(tools ?? envelope?.tools),
    messages,
    markers,
    source: {
      mode,
      ...(body
        ? {
            request: requestRest,
            inputString,
            ...(typeof instructions === 'string' || instructions === undefined
              ? {}
              : { instructionsRaw: instructions }),
            ...(instructions === '' ? { instructionsRaw: '' } : {}),
          }
        : {}),
      ...(envelope ? { response: envelope } : {}),
      ...(!body && envelope?.tools !== undefined ? { toolsFromResponse: true } : {}),
      ...(input.kind === 'json' && input.exchange?.url ? { url: input.exchange.url } : {}),
    },
  }
  return ok(conversation, warnings)
}

/** `previous_response_id` / `conversation` with a value: the paste is only the latest delta. */
function serverHistory(body: Record<string, unknown> | undefined): string | undefined {
  if (!body) return undefined
  const prev = body.previous_response_id
  if (typeof prev === 'string' && prev !== '') {
    return `the request continues response ${prev} (previous_response_id): earlier turns are stored server-side and are not in this input`
  }
  const conv = body.conversation
  const convId = typeof conv === 'string' ? conv : isObject(conv) ? str(conv.id) : undefined
  if (conv !== undefined && conv !== null) {
    return `the request belongs to server-side conversation ${convId ?? '(unnamed)'}: its stored items are not in this input`
  }
  return undefined
}
