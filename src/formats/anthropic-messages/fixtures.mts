// Fixtures and helpers shared by the anthropic-messages test files.
import { expect } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'

export function load(text: string): {
  conv: Conversation
  warnings: readonly { line: number; offset: number; message: string }[]
} {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${JSON.stringify(r.error)}`)
  return { conv: r.conversation, warnings: r.warnings }
}

/** Round trip keeping the digest, the marker count, system and tools. */
export function roundTripAll(conv: Conversation): void {
  const again = roundTrip(importer, conv)
  expect(again.markers.length).toBe(conv.markers.length)
  expect(again.system).toEqual(conv.system)
  expect(again.tools).toEqual(conv.tools)
}

export function parts(conv: Conversation): Part[] {
  return conv.messages.flatMap((m) => m.parts)
}

export const SIG = 'EqQBCkYIBxgCKkA' + 'x'.repeat(85)
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** A request with every block kind the importer handles. */
export const REQUEST = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  thinking: { type: 'enabled', budget_tokens: 2000 },
  tools: [
    {
      name: 'weather',
      description: 'Weather now',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
    },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
  ],
  messages: [
    { role: 'user', content: 'Weather in Oslo and Bergen?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Two cities: call twice.', signature: SIG },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_A', name: 'weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_B', name: 'weather', input: { city: 'Bergen' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_B',
          content: [
            { type: 'text', text: '7C' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
        { type: 'tool_result', tool_use_id: 'toolu_A', content: 'timeout', is_error: true },
        { type: 'text', text: 'Also search the news.' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'RDATA0123456789' },
        {
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'web_search',
          input: { query: 'Oslo news' },
        },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [
            {
              type: 'web_search_result',
              url: 'https://x.no',
              title: 'X',
              encrypted_content: 'ENC',
              page_age: '1d',
            },
          ],
        },
        {
          type: 'text',
          text: 'Oslo is cold.',
          citations: [{ type: 'web_search_result_location', url: 'https://x.no' }],
        },
        { type: 'tool_use', id: '', name: 'weather', input: { city: 'Tromsø' } },
        { type: 'tool_use', name: 'weather', input: {} },
        { type: 'future_block', payload: 'zzz' },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: '' },
        { type: 'image', source: { type: 'url', url: 'https://img/x.png' } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'hello doc' },
          title: 'notes.txt',
        },
      ],
    },
  ],
}

export const STREAM = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-x","content":[],"usage":{"input_tokens":30,"output_tokens":1}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me "}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"think."}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIGSIG"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":0}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Calling."}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":1}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_S","name":"weather","input":{}}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": "}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"\\"Oslo\\"}"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":2}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":42}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
].join('\n')
