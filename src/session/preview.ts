import type { Conversation, Message, Part } from '../engine/model.ts'
import type { MessagePreview } from './types.ts'

/** Excerpts stay small: the UI only needs enough to recognise the transcript. */
const MAX_CHARS = 400

function partText(part: Part): string {
  switch (part.kind) {
    case 'text':
      return part.text
    case 'tool_call':
      return `${part.name}(${part.argsRaw})`
    case 'tool_result':
      return part.content.map((c) => (c.kind === 'text' ? c.text : `[${c.kind}]`)).join('\n')
    // Reasoning, images, files and opaque payloads are never shown as text.
    case 'reasoning':
    case 'image':
    case 'file':
    case 'opaque':
      return ''
    default: {
      const unknownPart: never = part
      return unknownPart
    }
  }
}

function excerpt(message: Message, label: string): MessagePreview | null {
  const text = message.parts.map(partText).filter(Boolean).join('\n').trim()
  if (text === '') return null
  const truncated = text.length > MAX_CHARS
  return {
    id: message.id,
    role: message.role,
    label,
    text: truncated ? text.slice(0, MAX_CHARS) : text,
    truncated,
  }
}

/** The first real user request and the last assistant text: the two ends of the story. */
export function previewConversation(conversation: Conversation): MessagePreview[] {
  const { messages } = conversation
  const firstUser = messages.find((m) => m.role === 'user' && !m.injected)
  let lastAssistant: Message | undefined
  for (let i = messages.length - 1; i >= 0 && !lastAssistant; i--) {
    const m = messages[i]
    if (m?.role === 'assistant' && m.parts.some((p) => p.kind === 'text' && p.text.trim() !== '')) {
      lastAssistant = m
    }
  }
  const out: MessagePreview[] = []
  const first = firstUser && excerpt(firstUser, 'First user message')
  if (first) out.push(first)
  const last = lastAssistant && excerpt(lastAssistant, 'Last assistant message')
  if (last) out.push(last)
  return out
}
