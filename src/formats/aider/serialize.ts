import type { Conversation, Message } from '../../engine/model.ts'
import { str } from '../util.ts'

function textOf(m: Message): string {
  return m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
}

/** Prefix every line the way aider writes it: marker, text, Markdown hard break. */
function prefixed(marker: '####' | '>', text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? `${marker}  ` : `${marker} ${line}  `))
    .join('\n')
}

/**
 * Write one aider session back as Markdown: the header, `#### ` user input, `> ` tool output
 * (injected messages) and plain assistant replies, each followed by a blank line so runs of the
 * same kind stay separate messages when read again.
 */
export function serialize(conversation: Conversation): string {
  const startedAt = str(conversation.source?.startedAt) ?? 'unknown'
  const out: string[] = [`# aider chat started at ${startedAt}`, '']
  for (const m of conversation.messages) {
    const text = textOf(m)
    if (m.role === 'assistant') out.push(text)
    else if (m.role === 'user' && !m.injected) out.push(prefixed('####', text))
    else out.push(prefixed('>', text))
    out.push('')
  }
  return out.join('\n')
}
