import type { Importer } from '../types.ts'
import { detectGeminiCli } from './detect.ts'
import { parseGeminiCli } from './parse.ts'
import { serializeGeminiCli } from './serialize.ts'

/**
 * Gemini CLI chat recordings: `user` / `gemini` records, with each tool call's result stored in
 * the call itself (split into a `tool` message here, folded back by the serializer). `info` /
 * `error` records are not sent to the model: they are kept aside for the serializer.
 */
export const importer: Importer = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  detect: (input) => detectGeminiCli(input),
  parse: (input) => parseGeminiCli(input),
  serialize: (conversation) => serializeGeminiCli(conversation),
}
