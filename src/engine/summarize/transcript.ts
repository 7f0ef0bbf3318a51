import type { Message, Part, ResultContent } from '../model.ts'

/**
 * Renders messages as plain text for an LLM summariser: one block per message, `[role]: text` lines,
 * tool calls as `[tool call] name(args)` and results as `[tool result] …`. Shared by every HTTP
 * summariser so they all see the same input. Pure, deterministic, ES2022 only.
 */

export interface TranscriptOptions {
  /** A previous summary, rendered first so the model can fold it into the new one. */
  readonly previousSummary?: string
  /** Each tool result (and tool-call argument string) is cut to this many chars. Default 2,000. */
  readonly maxResultChars?: number
  /** Visible reasoning is cut to this many chars; 0 leaves reasoning out. Default 2,000. */
  readonly maxReasoningChars?: number
}

export const DEFAULT_MAX_RESULT_CHARS = 2_000

/**
 * Cuts `text` to at most `max` chars (never splitting a surrogate pair) and says how long it was.
 * The marker is added after the kept text, so the result may exceed `max` by the marker's length.
 */
export function truncateWithMarker(text: string, max: number): string {
  if (text.length <= max) return text
  return `${sliceSafe(text, max)}… [truncated: ${text.length} chars total, showing first ${max}]`
}

/** `text.slice(0, n)` that backs off one char rather than leave half a surrogate pair. */
export function sliceSafe(text: string, n: number): string {
  if (n <= 0) return ''
  if (n >= text.length) return text
  const code = text.charCodeAt(n - 1)
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, n - 1) : text.slice(0, n)
}

function roleLabel(message: Message): string {
  if (message.summaryOf) return 'summary'
  const tags: string[] = []
  if (message.injected) tags.push('injected')
  if (message.sidechain) tags.push(`sidechain ${message.sidechain}`)
  return tags.length > 0 ? `${message.role} (${tags.join(', ')})` : message.role
}

function resultContentText(content: ResultContent): string {
  switch (content.kind) {
    case 'text':
      return content.text
    case 'image':
      return `[image${content.mediaType ? ` ${content.mediaType}` : ''}]`
    case 'file':
      return `[file${content.filename ? ` ${content.filename}` : ''}]`
    case 'opaque':
      return `[opaque: ${content.opaque.label}, ${content.opaque.bytes} bytes]`
    default: {
      const never: never = content
      return String(never)
    }
  }
}

/** The text of a tool result's content, blocks joined by newlines. */
export function toolResultText(content: readonly ResultContent[]): string {
  return content.map(resultContentText).join('\n')
}

function renderPart(
  part: Part,
  role: string,
  maxResult: number,
  maxReasoning: number,
): string | null {
  switch (part.kind) {
    case 'text':
      return `[${role}]: ${part.text}`
    case 'reasoning':
      if (maxReasoning <= 0 || part.text.trim() === '') return null
      return `[reasoning]: ${truncateWithMarker(part.text, maxReasoning)}`
    case 'tool_call':
      return `[tool call] ${part.name}(${truncateWithMarker(part.argsRaw, maxResult)})`
    case 'tool_result': {
      const head = `[tool result${part.isError ? ', error' : ''}]${part.name ? ` ${part.name}` : ''}`
      return `${head}: ${truncateWithMarker(toolResultText(part.content), maxResult)}`
    }
    case 'image':
      return `[${role}]: [image${part.mediaType ? ` ${part.mediaType}` : ''}]`
    case 'file':
      return `[${role}]: [file${part.filename ? ` ${part.filename}` : ''}]`
    case 'opaque':
      // Opaque payloads (encrypted reasoning, compaction blobs) are never rendered as text.
      return null
    default: {
      const never: never = part
      return String(never)
    }
  }
}

/** Renders `messages` (and an optional previous summary, first) as the summariser's input text. */
export function formatTranscript(
  messages: readonly Message[],
  options: TranscriptOptions = {},
): string {
  const maxResult = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS
  const maxReasoning = options.maxReasoningChars ?? DEFAULT_MAX_RESULT_CHARS
  const blocks: string[] = []
  const previous = options.previousSummary?.trim()
  if (previous) blocks.push(`[previous summary]: ${previous}`)
  for (const message of messages) {
    const role = roleLabel(message)
    const lines: string[] = []
    for (const part of message.parts) {
      const line = renderPart(part, role, maxResult, maxReasoning)
      if (line !== null) lines.push(line)
    }
    if (lines.length > 0) blocks.push(lines.join('\n'))
  }
  return blocks.join('\n\n')
}
