import type { Importer } from '../types.ts'
import { detect, parse } from './parse.ts'
import { serialize } from './serialize.ts'

/**
 * SWE-agent trajectories (`.traj`): the conversation is `history` (0.x text actions with
 * observations as user messages; 1.x OpenAI-style `tool_calls` + tool messages with
 * `tool_call_ids` arrays). mini-swe-agent `messages` files are read the same way.
 */
export const importer: Importer = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  detect,
  parse,
  serialize,
}
