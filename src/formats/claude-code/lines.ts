import type { JsonlLine, SniffedInput } from '../types.ts'
import { isObject } from '../util.ts'

/** Line types Claude Code writes into a session file (plus a few seen in the wild). */
export const CLAUDE_CODE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'last-prompt',
  'pr-link',
  'saved_hook_context',
  'custom-title',
  'ai-title',
  'attachment',
  'agent-name',
  'mode',
])

/**
 * The JSONL lines of the input. A one-line session file is a valid JSON document, so `sniff`
 * reports it as `json`: accept a single object as a single line.
 */
export function linesOf(input: SniffedInput): readonly JsonlLine[] {
  if (input.kind === 'jsonl') return input.lines
  if (input.kind === 'json' && !input.exchange && isObject(input.value)) {
    return [{ line: 1, offset: 0, value: input.value }]
  }
  return []
}

/** One source line that produced parts of a message (kept so the serializer can rewrite it). */
export interface LineRecord {
  readonly line: number
  /** The original line object; `message.content` is rebuilt from the parts on write. */
  readonly envelope: Record<string, unknown>
  /** How many consecutive parts of the message this line produced. */
  readonly parts: number
}

/** A non-message line (snapshot, title, system event…), kept verbatim with its position. */
export interface ExtraLine {
  readonly line: number
  readonly value: unknown
}
