// Fixtures and helpers shared by the openai-chat test files.
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'

export function load(value: unknown): Conversation {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${r.error.message}`)
  return r.conversation
}

export function parts(c: Conversation, kind: Part['kind']): Part[] {
  return c.messages.flatMap((m) => m.parts.filter((p) => p.kind === kind))
}

export const weather = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Oslo and Rome?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Oslo"}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Rome"' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_b', content: '21C' },
    { role: 'tool', tool_call_id: 'call_a', content: '4C' },
    { role: 'assistant', content: 'Oslo 4C, Rome 21C.' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'weather', description: 'Get weather', parameters: { type: 'object' } },
    },
  ],
}
