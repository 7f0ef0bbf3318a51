import type { Conversation, Message } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { serializeResponseItems } from './items.ts'
import { parseJson } from '../../engine/json.ts'

/**
 * Writes a conversation back as Responses JSON in the shape it came in: a request body, a
 * response body, a bare item array, or — when trailing messages came from a response — a
 * one-exchange capture `[{request, response}]` so output item ids and usage survive.
 */
export function serializeResponses(conversation: Conversation): string {
  const src = conversation.source ?? {}
  const mode = str(src.mode) ?? 'request'
  const all = conversation.messages
  let split = all.length
  while (split > 0 && all[split - 1]?.source?.fromResponse === true) split--
  const inputMessages = all.slice(0, split)
  const outputMessages = all.slice(split)

  const responseBody =
    outputMessages.length > 0 || (mode === 'response' && isObject(src.response))
      ? {
          ...(isObject(src.response) ? src.response : { object: 'response' }),
          output: serializeResponseItems(outputMessages),
        }
      : undefined
  if (responseBody && mode === 'response' && inputMessages.length === 0) return json(responseBody)
  if (mode === 'items' && !responseBody) return json(serializeResponseItems(inputMessages))

  const request = buildRequest(conversation, inputMessages)
  if (responseBody) {
    const uri = str(src.url) ?? 'https://api.openai.com/v1/responses'
    return json([
      {
        request: { method: 'POST', uri, body: request },
        response: { status: 200, body: responseBody },
      },
    ])
  }
  return json(request)
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 1) + '\n'
}

function buildRequest(
  conversation: Conversation,
  messages: readonly Message[],
): Record<string, unknown> {
  const src = conversation.source ?? {}
  const rest = isObject(src.request) ? src.request : {}
  const items = serializeResponseItems(messages)
  const only = items[0]
  // `input: "text"` came in as one easy user message: write the string back while that holds.
  const input =
    src.inputString === true &&
    items.length === 1 &&
    isObject(only) &&
    only.role === 'user' &&
    typeof only.content === 'string' &&
    !('type' in only)
      ? only.content
      : items
  const system = conversation.system.map((p) => p.text).join('\n\n')
  const instructions = system !== '' ? system : src.instructionsRaw
  const tools = conversation.tools.map((t) => {
    try {
      return parseJson(t.raw) as unknown
    } catch {
      return { type: 'function', name: t.name, description: t.description }
    }
  })
  const model = str(rest.model) ?? conversation.meta.model
  return {
    ...(model !== undefined ? { model } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    input,
    ...rest,
    ...(tools.length && src.toolsFromResponse !== true ? { tools } : {}),
  }
}
