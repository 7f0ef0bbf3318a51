import type { Importer } from '../types.ts'
import { detect, parse } from './parse.ts'
import { serialize } from './serialize.ts'

/**
 * aider `.aider.chat.history.md`: Markdown appended per session. The last session is the
 * conversation (others are listed in `meta.notes`); `#### ` is user input, `> ` is aider's own
 * output (kept as injected user messages), everything else is the assistant reply.
 */
export const importer: Importer = {
  id: 'aider',
  label: 'aider chat history',
  detect,
  parse,
  serialize,
}
