import type { Importer } from '../types.ts'
import { detect } from './detect.ts'
import { parse } from './parse.ts'
import { serialize } from './serialize.ts'

/**
 * opencode sessions: `opencode export` (`{info, messages:[{info, parts}]}`), the bare messages
 * array, and ad-hoc SQLite dumps. Multi-step assistant messages become one canonical message per
 * model call; tool parts (call + result in one record) become a call and a `role:'tool'` result.
 */
export const importer: Importer = {
  id: 'opencode',
  label: 'opencode session',
  detect,
  parse,
  serialize,
}
