import type { Detection, ImportOptions, SniffedInput } from '../types.ts'
import { isObject, linesOf, str } from '../util.ts'
import { ROLLOUT_TYPES } from './lines.ts'

/**
 * formats.md §16 rule 3a: at least half the lines are `{type, payload}` envelopes with a rollout
 * `type`. Checked before Claude Code and the Responses format, whose items Codex embeds.
 */
export function detectCodex(input: SniffedInput, options?: ImportOptions): Detection | null {
  const lines = linesOf(input)
  if (lines.length === 0) return null
  let hits = 0
  let items = 0
  let meta = 0
  for (const { value } of lines) {
    if (!isObject(value) || !('payload' in value)) continue
    const type = str(value.type)
    if (type === undefined || !ROLLOUT_TYPES.has(type)) continue
    hits++
    if (type === 'response_item') items++
    if (type === 'session_meta') meta++
  }
  const n = lines.length
  if (hits === 0) return null
  const evidence = [
    `${hits}/${n} lines have a rollout \`type\` (session_meta/response_item/event_msg/turn_context/compacted) + \`payload\``,
  ]
  if (items > 0) evidence.push(`${items} response_item lines`)
  if (meta > 0) evidence.push(`${meta} session_meta line${meta > 1 ? 's' : ''}`)
  const name = options?.fileName
  if (name && /(^|[/\\])rollout-[^/\\]*\.jsonl$/.test(name))
    evidence.push(`file name ${name} is a Codex rollout`)
  if (hits / n < 0.5) return { format: 'codex', confidence: 0.3, evidence }
  return { format: 'codex', confidence: items > 0 || meta > 0 ? 0.95 : 0.8, evidence }
}
