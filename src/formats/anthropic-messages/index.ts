import type { Importer } from '../types.ts'
import { detectAnthropic } from './detect.ts'
import { parseAnthropic } from './parse.ts'
import { serializeAnthropic } from './serialize.ts'

/**
 * Anthropic Messages API: request bodies (`system`, `tools`, `messages`), request + response
 * captures (the response becomes the last assistant turn, with its usage), lone responses, SSE
 * streams and bare message arrays. Tool results stay in their `user` messages, as sent.
 */
export const importer: Importer = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages API',
  detect: (input) => detectAnthropic(input),
  parse: (input) => parseAnthropic(input),
  serialize: (conversation) => serializeAnthropic(conversation),
}
