import type { Importer } from '../types.ts'
import { detectClaudeCode } from './detect.ts'
import { parseClaudeCode } from './parse.ts'
import { serializeClaudeCode } from './serialize.ts'

/**
 * Claude Code session JSONL (`~/.claude/projects/<cwd>/<sessionId>.jsonl`, subagent
 * `agent-*.jsonl` files, and `claude -p --output-format stream-json` output). formats.md §6.
 */
export const importer: Importer = {
  id: 'claude-code',
  label: 'Claude Code session',
  detect: detectClaudeCode,
  parse: parseClaudeCode,
  serialize: serializeClaudeCode,
}
