import type { Importer } from '../types.ts'
import { detect } from './detect.ts'
import { parse } from './parse.ts'
import { serialize } from './serialize.ts'

/**
 * OpenHands event streams. V0 (app "Download trajectory"): actions/observations rebuilt into the
 * LLM view (one assistant message per model response, observations as tool results, state
 * events kept aside). V1 (agent-sdk `kind: *Event`) from the documented shape.
 */
export const importer: Importer = {
  id: 'openhands',
  label: 'OpenHands events',
  detect,
  parse,
  serialize,
}
