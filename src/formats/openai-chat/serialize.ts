import type { Conversation, Message } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { messageToChat } from './messages.ts'
import { parseJson } from '../../engine/json.ts'

/**
 * Writes a conversation back as Chat Completions JSON in the shape it came in: bare messages
 * array, request body, tau-bench result array, JSON Lines, or — when the last message came from
 * a response — a one-exchange capture `[{request, response}]` so the response id, usage and
 * envelope survive a round trip. Messages removed by a compaction are simply absent.
 */
export function serializeChat(conversation: Conversation): string {
  const src = conversation.source ?? {}
  const mode = str(src.mode) ?? 'request'
  const all = conversation.messages
  const last = all[all.length - 1]
  const fromResponse = last?.source?.fromResponse === true ? last : undefined
  const requestMessages = fromResponse ? all.slice(0, -1) : all
  const chatMessages = requestMessages.map(messageToChat)

  const responseBody = fromResponse ? buildResponse(fromResponse, src.response) : undefined
  if (responseBody && mode === 'response' && requestMessages.length === 0) return json(responseBody)

  const request = buildRequest(conversation, chatMessages)
  if (responseBody) {
    const uri = str(src.url) ?? 'https://api.openai.com/v1/chat/completions'
    return json([
      {
        request: { method: 'POST', uri, body: request },
        response: { status: 200, body: responseBody },
      },
    ])
  }
  switch (mode) {
    case 'messages':
      return json(chatMessages)
    case 'jsonl':
      return chatMessages.map((m) => JSON.stringify(m)).join('\n') + '\n'
    case 'tau-bench': {
      const envelope = isObject(src.tauBench) ? src.tauBench : {}
      return json([{ ...envelope, traj: chatMessages }])
    }
    default:
      return json(request)
  }
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 1) + '\n'
}

function buildRequest(conversation: Conversation, messages: unknown[]): Record<string, unknown> {
  const src = conversation.source ?? {}
  const rest = isObject(src.request) ? src.request : {}
  const legacy = src.legacyFunctions === true
  const tools: unknown[] = []
  const functions: unknown[] = []
  for (const t of conversation.tools) {
    let def: unknown
    try {
      def = parseJson(t.raw) as unknown
    } catch {
      def = { type: 'function', function: { name: t.name, description: t.description } }
    }
    // Legacy `functions` entries have no `type`/`function` wrapper.
    if (legacy && isObject(def) && !('type' in def) && !('function' in def)) functions.push(def)
    else tools.push(def)
  }
  const model = str(rest.model) ?? conversation.meta.model
  return {
    ...(model !== undefined ? { model } : {}),
    messages,
    ...rest,
    ...(tools.length ? { tools } : {}),
    ...(functions.length ? { functions } : {}),
  }
}

function buildResponse(message: Message, envelope: unknown): Record<string, unknown> {
  const env = isObject(envelope) ? envelope : { object: 'chat.completion' }
  const choice = isObject(message.source?.choice) ? message.source.choice : { index: 0 }
  return { ...env, choices: [{ ...choice, message: messageToChat(message) }] }
}
