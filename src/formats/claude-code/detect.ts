import type { Detection, ImportOptions, SniffedInput } from '../types.ts'
import { isObject, linesOf, str } from '../util.ts'
import { CLAUDE_CODE_TYPES } from './lines.ts'

const STREAM_TYPES: ReadonlySet<string> = new Set(['system', 'assistant', 'user', 'result'])

/**
 * formats.md §16 rule 3b: most lines carry a Claude Code `type` and one of
 * `parentUuid`/`leafUuid`/`messageId`/`sessionId`. `claude -p --output-format stream-json`
 * (snake_case `session_id`, `system/init`, `result`) is recognised with lower confidence.
 */
export function detectClaudeCode(input: SniffedInput, options?: ImportOptions): Detection | null {
  const lines = linesOf(input)
  if (lines.length === 0) return null
  let session = 0
  let tree = 0
  let anthropic = 0
  let stream = 0
  let streamMarkers = 0
  for (const { value } of lines) {
    if (!isObject(value)) continue
    const type = str(value.type)
    if (type === undefined) continue
    if (
      CLAUDE_CODE_TYPES.has(type) &&
      ('parentUuid' in value || 'leafUuid' in value || 'messageId' in value || 'sessionId' in value)
    ) {
      session++
      if ('uuid' in value && 'parentUuid' in value) tree++
    }
    if ((type === 'assistant' || type === 'user') && isObject(value.message)) {
      const id = str(value.message.id)
      if (id?.startsWith('msg_')) anthropic++
    }
    if (STREAM_TYPES.has(type) && 'session_id' in value) {
      stream++
      if ((type === 'system' && value.subtype === 'init') || type === 'result') streamMarkers++
    }
  }
  const n = lines.length
  const evidence: string[] = []
  if (session / n >= 0.5) {
    evidence.push(
      `${session}/${n} lines have a Claude Code \`type\` + parentUuid/leafUuid/messageId/sessionId`,
    )
    if (tree > 0) evidence.push(`${tree} lines carry uuid + parentUuid (conversation tree)`)
    if (anthropic > 0) evidence.push(`${anthropic} lines embed an Anthropic message (msg_… id)`)
    const hint = fileHint(options)
    if (hint) evidence.push(hint)
    return { format: 'claude-code', confidence: tree > 0 ? 0.95 : 0.85, evidence }
  }
  if (stream / n >= 0.5 && streamMarkers > 0) {
    evidence.push(`${stream}/${n} lines have type + snake_case session_id (claude -p stream-json)`)
    evidence.push(`${streamMarkers} system/init or result lines`)
    return { format: 'claude-code', confidence: 0.7, evidence }
  }
  if (session > 0 && session / n >= 0.2) {
    evidence.push(`only ${session}/${n} lines look like Claude Code session lines`)
    return { format: 'claude-code', confidence: 0.3, evidence }
  }
  return null
}

function fileHint(options?: ImportOptions): string | undefined {
  const name = options?.fileName
  if (!name) return undefined
  if (/(^|[/\\])agent-[^/\\]+\.jsonl$/.test(name))
    return `file name ${name} looks like a subagent file`
  if (/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/.test(name)) {
    return `file name ${name} is a session uuid`
  }
  return undefined
}
