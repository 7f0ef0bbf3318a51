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
