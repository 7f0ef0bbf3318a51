import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { digest } from '../testing.ts'
import { importer } from './index.ts'

function load(text: string): {
  conv: Conversation
  warnings: readonly { line: number; offset: number; message: string }[]
} {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${JSON.stringify(r.error)}`)
  return { conv: r.conversation, warnings: r.warnings }
}

function roundTrip(conv: Conversation): void {
  const again = importer.parse(sniff(importer.serialize(conv)))
  if (!again.ok) throw new Error(`re-import failed: ${JSON.stringify(again.error)}`)
  expect(digest(again.conversation)).toEqual(digest(conv))
  expect(again.conversation.markers.length).toBe(conv.markers.length)
  expect(again.conversation.system).toEqual(conv.system)
  expect(again.conversation.tools).toEqual(conv.tools)
}

function parts(conv: Conversation): Part[] {
  return conv.messages.flatMap((m) => m.parts)
}

const SIG = 'EqQBCkYIBxgCKkA' + 'x'.repeat(85)
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** A request with every block kind the importer handles. */
const REQUEST = {
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

describe('anthropic-messages detection', () => {
  it('recognises a request with input_schema tools and Anthropic blocks', () => {
    const d = importer.detect(sniff(JSON.stringify(REQUEST)))
    expect(d?.format).toBe('anthropic-messages')
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/input_schema/)
    expect(d?.evidence.join(' ')).toMatch(/tool_use/)
  })

  it('recognises a response, a bare block array and an SSE stream', () => {
    const res = importer.detect(
      sniff(JSON.stringify({ type: 'message', role: 'assistant', content: [] })),
    )
    expect(res?.confidence).toBeGreaterThanOrEqual(0.9)
    const arr = importer.detect(sniff(JSON.stringify(REQUEST.messages)))
    expect(arr?.confidence).toBeGreaterThanOrEqual(0.8)
    const sse = importer.detect(sniff(STREAM))
    expect(sse?.confidence).toBeGreaterThanOrEqual(0.9)
  })

  it('does not claim plain role/content arrays, OpenAI chat or Gemini with high confidence', () => {
    const plain = importer.detect(
      sniff(
        JSON.stringify([
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'yo' },
        ]),
      ),
    )
    expect(plain?.confidence ?? 0).toBeLessThan(0.5)
    const openai = {
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'ok' },
      ],
    }
    expect(importer.detect(sniff(JSON.stringify(openai)))?.confidence ?? 0).toBeLessThan(0.5)
    expect(
      importer.detect(
        sniff(JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })),
      ),
    ).toBeNull()
    expect(
      importer.detect(
        sniff(
          JSON.stringify({
            sessionId: 's',
            projectHash: 'p',
            messages: [{ type: 'gemini', content: '' }],
          }),
        ),
      ),
    ).toBeNull()
  })
})

describe('anthropic-messages parsing', () => {
  it('maps every block kind, keeps roles and ids as written', () => {
    const { conv, warnings } = load(JSON.stringify(REQUEST))
    expect(warnings).toEqual([])
    expect(conv.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ])
    expect(conv.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4'])
    expect(conv.system).toEqual([
      {
        kind: 'text',
        text: 'Be brief.',
        meta: { extras: { cache_control: { type: 'ephemeral' } } },
      },
    ])
    expect(conv.tools.map((t) => t.name)).toEqual(['weather', 'web_search'])
    expect(JSON.parse(conv.tools[1]?.raw ?? '')).toEqual(REQUEST.tools[1])
    expect(conv.meta.model).toBe('claude-sonnet-4-5')

    const [thinking, , callA, callB] = conv.messages[1]?.parts ?? []
    expect(thinking).toMatchObject({
      kind: 'reasoning',
      text: 'Two cities: call twice.',
      opaque: { label: 'thinking signature', bytes: SIG.length },
    })
    expect(callA).toMatchObject({
      kind: 'tool_call',
      callId: 'toolu_A',
      name: 'weather',
      argsRaw: '{"city":"Oslo"}',
      args: { city: 'Oslo' },
    })
    expect(callB).toMatchObject({ kind: 'tool_call', callId: 'toolu_B' })

    // Results out of order, in the user message (role untouched), with image content and is_error.
    const [resB, resA, text] = conv.messages[2]?.parts ?? []
    expect(resB).toMatchObject({ kind: 'tool_result', callId: 'toolu_B', isError: false })
    expect(resB?.kind === 'tool_result' && resB.content.map((c) => c.kind)).toEqual([
      'text',
      'image',
    ])
    expect(resB?.kind === 'tool_result' && resB.content[1]).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      bytes: 70,
    })
    expect(resA).toMatchObject({
      kind: 'tool_result',
      callId: 'toolu_A',
      isError: true,
      content: [{ kind: 'text', text: 'timeout' }],
    })
    expect(text).toEqual({ kind: 'text', text: 'Also search the news.' })

    const m3 = conv.messages[3]?.parts ?? []
    expect(m3[0]).toMatchObject({
      kind: 'reasoning',
      redacted: true,
      text: '',
      opaque: { label: 'redacted thinking', bytes: 15 },
    })
    expect(m3[1]).toMatchObject({
      kind: 'tool_call',
      callId: 'srvtoolu_1',
      serverSide: true,
      callType: 'server_tool_use',
    })
    expect(m3[2]).toMatchObject({ kind: 'tool_result', callId: 'srvtoolu_1', isError: false })
    expect(m3[2]?.kind === 'tool_result' && m3[2].content[0]?.kind).toBe('opaque')
    expect(m3[3]).toMatchObject({ kind: 'text', text: 'Oslo is cold.' })
    expect(m3[4]).toMatchObject({ kind: 'tool_call', callId: '' })
    expect(m3[5]).toMatchObject({ kind: 'tool_call', callId: null, args: {} })
    expect(m3[6]).toMatchObject({
      kind: 'opaque',
      opaque: { label: 'future_block block' },
      raw: { type: 'future_block', payload: 'zzz' },
    })

    const m4 = conv.messages[4]?.parts ?? []
    expect(m4[0]).toMatchObject({ kind: 'tool_result', callId: '', content: [] })
    expect(m4[1]).toMatchObject({ kind: 'image', url: 'https://img/x.png', bytes: 0 })
    expect(m4[2]).toMatchObject({
      kind: 'file',
      filename: 'notes.txt',
      data: 'hello doc',
      bytes: 9,
    })
  })

  it('round-trips the full request, and string vs block content keeps its shape', () => {
    const { conv } = load(JSON.stringify(REQUEST))
    roundTrip(conv)
    const out = JSON.parse(importer.serialize(conv)) as typeof REQUEST
    expect(out).toEqual(REQUEST)
    expect(typeof out.messages[0]?.content).toBe('string')
  })

  it('turns a compaction block into a text part plus an upstream marker', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      context_management: {
        edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50000 } }],
      },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'long context…' }] },
        {
          role: 'assistant',
          content: [
            { type: 'compaction', content: 'Summary: the user pasted text.' },
            { type: 'text', text: 'Hi' },
          ],
        },
        { role: 'user', content: 'What did I ask?' },
      ],
    }
    const { conv } = load(JSON.stringify(body))
    expect(conv.markers).toEqual([
      {
        kind: 'upstream_compaction',
        beforeIndex: 1,
        origin: 'anthropic-compaction',
        summary: 'Summary: the user pasted text.',
        trigger: 'input_tokens >= 50000',
      },
    ])
    expect(conv.messages[1]?.parts[0]).toMatchObject({
      kind: 'text',
      text: 'Summary: the user pasted text.',
      meta: { blockType: 'compaction' },
    })
    roundTrip(conv)
  })
})

const RESPONSE = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'compaction', content: 'sum' },
    { type: 'text', text: 'Hello' },
  ],
  stop_reason: 'end_turn',
  usage: {
    input_tokens: 20,
    cache_read_input_tokens: 100,
    cache_creation_input_tokens: 5,
    output_tokens: 8,
    iterations: [
      { type: 'compaction', input_tokens: 55196 },
      { type: 'message', input_tokens: 20 },
    ],
  },
}

describe('anthropic-messages request + response captures', () => {
  const exchange = JSON.stringify([
    {
      request: {
        method: 'POST',
        uri: 'https://api.anthropic.com/v1/messages',
        body: {
          model: 'claude-sonnet-4-6',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
        },
      },
      response: { status: 200, body: RESPONSE },
    },
  ])

  it('appends the response as the last assistant turn with its usage', () => {
    const { conv } = load(exchange)
    expect(conv.messages.map((m) => [m.id, m.role])).toEqual([
      ['m0', 'user'],
      ['msg_01', 'assistant'],
    ])
    expect(conv.messages[1]?.usage).toMatchObject({
      contextTokens: 125,
      inputTokens: 20,
      cacheReadTokens: 100,
      cacheWriteTokens: 5,
      outputTokens: 8,
    })
    expect(conv.messages[1]?.model).toBe('claude-sonnet-4-6')
    expect(conv.markers[0]).toMatchObject({ beforeIndex: 1, preTokens: 55196 })
    expect(conv.meta.wrapper).toBe('vcr')
    roundTrip(conv)
    const again = load(importer.serialize(conv)).conv
    expect(again.messages[1]?.usage).toEqual(conv.messages[1]?.usage)
  })

  it('loads a response alone as one assistant turn', () => {
    const { conv } = load(JSON.stringify(RESPONSE))
    expect(conv.messages).toHaveLength(1)
    expect(conv.meta.notes?.join(' ')).toMatch(/single response/)
    roundTrip(conv)
  })
})

const STREAM = [
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

describe('anthropic-messages SSE streams', () => {
  it('reassembles text, thinking, signature and tool input deltas', () => {
    const { conv, warnings } = load(STREAM)
    expect(warnings).toEqual([])
    const m = conv.messages[0]
    expect(m?.id).toBe('msg_s')
    expect(m?.parts[0]).toMatchObject({
      kind: 'reasoning',
      text: 'Let me think.',
      opaque: { data: 'SIGSIG' },
    })
    expect(m?.parts[1]).toEqual({ kind: 'text', text: 'Calling.' })
    expect(m?.parts[2]).toMatchObject({
      kind: 'tool_call',
      callId: 'toolu_S',
      args: { city: 'Oslo' },
    })
    expect(m?.usage).toMatchObject({ contextTokens: 30, outputTokens: 42 })
    roundTrip(conv)
  })

  it('keeps a cut-off tool input raw and warns, inside an exchange capture', () => {
    const cut = STREAM.slice(0, STREAM.indexOf('"\\"Oslo')).split('\n').slice(0, -1).join('\n')
    const capture = JSON.stringify([
      {
        request: {
          uri: 'https://api.anthropic.com/v1/messages',
          body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'go' }] },
        },
        response: { status: 200, body: cut },
      },
    ])
    const { conv, warnings } = load(capture)
    const call = conv.messages[1]?.parts[2]
    expect(call).toMatchObject({ kind: 'tool_call', argsRaw: '{"city": ' })
    expect(call?.kind === 'tool_call' && call.argsError).toBeTruthy()
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/incomplete.*kept raw/)
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/message_stop/)
    roundTrip(conv)
  })
})

describe('anthropic-messages bad input', () => {
  it('fails on broken JSON with line and offset', () => {
    const r = importer.parse(
      sniff('{\n  "messages": [\n    {"role": "user", "content": "hi"\n  ]\n}'),
    )
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.line).toBe(4)
      expect(r.error.offset).toBeGreaterThan(0)
      expect(r.error.message).toMatch(/expected an Anthropic Messages JSON body/)
    }
  })

  it('fails when `messages` is not an array, naming where', () => {
    const text = '{\n  "model": "x",\n  "messages": 5\n}'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatchObject({ line: 3, offset: text.indexOf('5') })
      expect(r.error.message).toMatch(/expected `messages` to be an array.*got a number/)
    }
  })

  it('skips bad messages and blocks with located warnings and keeps the rest', () => {
    const text = [
      '{"max_tokens": 5, "messages": [',
      '  {"role": "user", "content": "ok"},',
      '  42,',
      '  {"role": "robot", "content": "x"},',
      '  {"role": "assistant", "content": [{"type": "text", "text": "fine"}, "junk", {"no": "type"}]}',
      ']}',
    ].join('\n')
    const { conv, warnings } = load(text)
    expect(conv.messages).toHaveLength(2)
    expect(warnings.map((w) => [w.line, w.offset])).toEqual([
      [3, text.indexOf('42')],
      [4, text.indexOf('{"role": "robot"')],
      [5, text.indexOf('"junk"')],
      [5, text.indexOf('{"no"')],
    ])
    expect(warnings[0]?.message).toMatch(/messages\[1\]: expected a message object/)
    expect(warnings[1]?.message).toMatch(/expected `role` "user" or "assistant"/)
    roundTrip(conv)
  })

  it('fails when nothing usable is left, and on JSON Lines', () => {
    const r = importer.parse(sniff('{"messages": [1, 2]}'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/at least one usable message/)
    const l = importer.parse(sniff('{"a":1}\n{"b":2}\n'))
    expect(l.ok).toBe(false)
    if (!l.ok) expect(l.error).toMatchObject({ line: 2, offset: 8 })
  })
})

const CORPUS = path.resolve(__dirname, '../../../../shared/corpus/anthropic-messages')
const corpusExists = existsSync(CORPUS)
if (!corpusExists) console.log(`anthropic-messages corpus tests skipped: ${CORPUS} not found`)

describe('anthropic-messages corpus', () => {
  const files = corpusExists ? readdirSync(CORPUS).sort() : []
  it.skipIf(!corpusExists)('has files', () => expect(files.length).toBeGreaterThan(0))
  for (const name of files) {
    it.skipIf(!corpusExists)(name, () => {
      const input = sniff(readFileSync(path.join(CORPUS, name), 'utf8'))
      const d = importer.detect(input)
      expect(d?.format).toBe('anthropic-messages')
      expect(d?.confidence).toBeGreaterThanOrEqual(0.6)
      const r = importer.parse(input)
      if (!r.ok) throw new Error(JSON.stringify(r.error))
      const conv = r.conversation
      expect(conv.messages.length).toBeGreaterThan(0)
      roundTrip(conv)
      const all = parts(conv)
      const calls = all.filter((p) => p.kind === 'tool_call').length
      const results = all.filter((p) => p.kind === 'tool_result').length
      console.log(
        `anthropic-messages/${name}: ${conv.messages.length} messages, ${calls} calls, ${results} results, ${conv.markers.length} markers, ${r.warnings.length} warnings`,
      )
      // Counts checked against the files (SOURCES.md): request = last body; exchange adds the response.
      const extra = name.endsWith('.exchanges.json') ? 1 : 0
      expect(conv.messages.length).toBe(3 + extra)
      if (name.includes('parallel')) expect([calls, results]).toEqual([4, 4])
      if (name.includes('tool_with_thinking')) expect([calls, results]).toEqual([1, 1])
      if (name.includes('compaction')) expect(conv.markers).toHaveLength(1)
      if (name.includes('redacted'))
        expect(all.some((p) => p.kind === 'reasoning' && p.redacted)).toBe(true)
      if (extra) expect(conv.messages.at(-1)?.usage?.contextTokens).toBeGreaterThan(0)
      expect(r.warnings).toEqual([])
    })
  }
})
