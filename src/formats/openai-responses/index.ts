import type { Importer } from '../types.ts'
import { detectResponses } from './detect.ts'
import { parseResponses } from './parse.ts'
import { serializeResponses } from './serialize.ts'

/**
 * OpenAI Responses API: request bodies (`input` + `instructions`), response bodies
 * (`object:"response"`), request+response captures (also SSE streams) and bare item arrays.
 * The item mapping lives in `items.ts` and is reusable (Codex). See formats.md §3.
 */
export const importer: Importer = {
  id: 'openai-responses',
  label: 'OpenAI Responses API',
  detect: detectResponses,
  parse: parseResponses,
  serialize: serializeResponses,
}
