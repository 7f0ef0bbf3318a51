import type { Importer } from '../types.ts'
import { detectGemini } from './detect.ts'
import { parseGemini } from './parse.ts'
import { serializeGemini } from './serialize.ts'

/**
 * Google Gemini generateContent: request bodies (`contents`, `systemInstruction`, `tools`),
 * request + response captures (the candidate becomes the last model turn, with usageMetadata),
 * lone responses, streamed chunks and bare contents arrays. camelCase and snake_case keys are
 * both read, and the spelling is kept per part for the serializer.
 */
export const importer: Importer = {
  id: 'gemini',
  label: 'Google Gemini (generateContent)',
  detect: (input) => detectGemini(input),
  parse: (input) => parseGemini(input),
  serialize: (conversation) => serializeGemini(conversation),
}
