import type { Importer } from '../types.ts'
import { detectChat } from './detect.ts'
import { parseChat } from './parse.ts'
import { serializeChat } from './serialize.ts'

/**
 * OpenAI Chat Completions: bare `messages` arrays, request bodies, request+response captures
 * (also streamed `chat.completion.chunk` responses), response bodies alone, tau-bench result
 * arrays and JSON Lines of messages. See formats.md §2.
 */
export const importer: Importer = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  detect: detectChat,
  parse: parseChat,
  serialize: serializeChat,
}
