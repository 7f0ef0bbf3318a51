import type { Conversation, Part, ResultContent } from '../engine/model.ts'

/**
 * A comparable digest of a conversation for round-trip tests: what must survive
 * serialize → import (messages, roles, tool calls/results and ids), nothing cosmetic.
 */
export function digest(conversation: Conversation) {
  return conversation.messages.map((m) => ({
    id: m.id,
    role: m.role,
    parts: m.parts.map(digestPart),
  }))
}

function contentText(content: readonly ResultContent[]): string {
  return content.map((c) => (c.kind === 'text' ? c.text : `[${c.kind}]`)).join('')
}

function digestPart(p: Part): Record<string, unknown> {
  switch (p.kind) {
    case 'text':
      return { kind: 'text', text: p.text }
    case 'reasoning':
      return { kind: 'reasoning', text: p.text, opaque: p.opaque?.bytes ?? 0 }
    case 'tool_call':
      return {
        kind: 'tool_call',
        callId: p.callId || null,
        name: p.name,
        args: p.args ?? p.argsRaw,
      }
    case 'tool_result':
      return {
        kind: 'tool_result',
        callId: p.callId || null,
        text: contentText(p.content),
        isError: p.isError,
      }
    case 'image':
      return { kind: 'image', bytes: p.bytes, url: p.url }
    case 'file':
      return { kind: 'file', bytes: p.bytes }
    case 'opaque':
      return { kind: 'opaque', bytes: p.opaque.bytes }
  }
}
