// Fixtures and helpers shared by the openai-responses test files.
import { expect } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'

export function load(value: unknown): Conversation {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${r.error.message}`)
  return r.conversation
}

/** Round trip keeping the digest and where the compaction markers stand. */
export function roundTripMarkers(c: Conversation): Conversation {
  const again = roundTrip(importer, c)
  expect(again.markers.map((m) => m.beforeIndex)).toEqual(c.markers.map((m) => m.beforeIndex))
  return again
}

export function parts(c: Conversation, kind: Part['kind']): Part[] {
  return c.messages.flatMap((m) => m.parts.filter((p) => p.kind === kind))
}

export const ENC = 'gAAAAABencrypted=='

/** Two parallel calls (answered out of order) after a reasoning item, then a final message. */
export const request = {
  model: 'gpt-5',
  instructions: 'Be brief.',
  include: ['reasoning.encrypted_content'],
  input: [
    { role: 'developer', content: 'Use tools.' },
    { role: 'user', content: 'Add 2+3 and 4+5.' },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [
        { type: 'summary_text', text: 'Plan.' },
        { type: 'summary_text', text: 'Use add twice.' },
      ],
      encrypted_content: ENC,
    },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'add',
      arguments: '{"a":2,"b":3}',
      status: 'completed',
    },
    {
      type: 'function_call',
      id: 'fc_2',
      call_id: 'call_2',
      name: 'add',
      arguments: '{"a":4,"b":5}',
      status: 'completed',
    },
    { type: 'function_call_output', call_id: 'call_2', output: '9' },
    { type: 'function_call_output', call_id: 'call_1', output: '5' },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: '5 and 9.', annotations: [] }],
    },
    { role: 'user', content: 'thanks' },
  ],
  tools: [
    { type: 'function', name: 'add', parameters: { type: 'object' }, strict: true },
    { type: 'web_search' },
  ],
}
