import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { IdAllocator } from '../util.ts'
import { importer } from './index.ts'
import { parseResponseItems, serializeResponseItems } from './items.ts'
import { load, roundTripMarkers, parts, ENC, request } from './fixtures.mts'

describe('openai-responses detection', () => {
  it('claims request bodies, responses, item arrays and streams with evidence', () => {
    const d = importer.detect(sniff(JSON.stringify(request)))
    expect(d).toMatchObject({ format: 'openai-responses' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/function_call 2/)
    expect(d?.evidence.join(' ')).toMatch(/2 flat tool definition/)
    expect(
      importer.detect(sniff('{"model":"gpt-5","input":"hi"}'))?.confidence,
    ).toBeGreaterThanOrEqual(0.9)
    expect(importer.detect(sniff(JSON.stringify(responseBody)))?.confidence).toBeGreaterThanOrEqual(
      0.9,
    )
    expect(
      importer.detect(sniff(JSON.stringify(request.input)))?.confidence,
    ).toBeGreaterThanOrEqual(0.6)
    expect(importer.detect(sniff(sse(true)))?.confidence).toBeGreaterThanOrEqual(0.9)
  })

  it('does not claim Codex rollouts, chat requests or Anthropic bodies', () => {
    const codex = [
      { timestamp: 't', type: 'session_meta', payload: { id: 'x' } },
      {
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'function_call', call_id: 'c', name: 'shell', arguments: '{}' },
      },
    ]
    expect(importer.detect(sniff(codex.map((l) => JSON.stringify(l)).join('\n')))).toBeNull()
    const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }
    expect(importer.detect(sniff(JSON.stringify(chat)))).toBeNull()
    const chatArray = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'yo' },
    ]
    expect(importer.detect(sniff(JSON.stringify(chatArray)))).toBeNull()
    const anthropic = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'n', input: {} }] },
    ]
    expect(importer.detect(sniff(JSON.stringify(anthropic)))).toBeNull()
  })
})

const responseBody = {
  id: 'resp_1',
  object: 'response',
  created_at: 1700000000,
  model: 'gpt-5-2025',
  output: [
    { type: 'reasoning', id: 'rs_9', summary: [], encrypted_content: ENC },
    {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'search', query: 'weather' },
    },
    {
      type: 'message',
      id: 'msg_9',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }],
    },
  ],
  usage: {
    input_tokens: 120,
    input_tokens_details: { cached_tokens: 100 },
    output_tokens: 30,
    output_tokens_details: { reasoning_tokens: 20 },
    total_tokens: 150,
  },
}

function sse(complete: boolean): string {
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  let out = ev('response.created', { response: { ...responseBody, output: [], usage: null } })
  responseBody.output.forEach((item, i) => {
    out += ev('response.output_item.added', { output_index: i, item })
    out += ev('response.output_item.done', { output_index: i, item })
  })
  if (complete) out += ev('response.completed', { response: responseBody })
  return out
}

describe('openai-responses parsing', () => {
  it('merges model-output items into one assistant message and correlates by call_id', () => {
    const c = load(request)
    expect(c.system).toEqual([{ kind: 'text', text: 'Be brief.' }])
    expect(c.messages.map((m) => `${m.role}:${m.id}`)).toEqual([
      'system:m0',
      'user:m1',
      'assistant:rs_1',
      'tool:m5',
      'tool:m6',
      'assistant:msg_1',
      'user:m8',
    ])
    expect(c.messages[0]?.source).toMatchObject({ role: 'developer', easy: true })
    const turn = c.messages[2]
    expect(turn?.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool_call', 'tool_call'])
    expect(turn?.parts[0]).toMatchObject({
      text: 'Plan.\n\nUse add twice.',
      textKind: 'summary',
      opaque: { label: 'encrypted reasoning', bytes: ENC.length, data: ENC },
    })
    // call_id is the key; the fc_ item id only travels in meta.
    expect(turn?.parts[1]).toMatchObject({
      callId: 'call_1',
      args: { a: 2, b: 3 },
      meta: { itemExtra: { id: 'fc_1', status: 'completed' } },
    })
    expect(parts(c, 'tool_result').map((p) => (p.kind === 'tool_result' ? p.callId : ''))).toEqual([
      'call_2',
      'call_1',
    ])
    expect(c.tools.map((t) => t.name)).toEqual(['add', 'web_search'])
    expect(JSON.parse(importer.serialize(c))).toEqual(request)
    roundTripMarkers(c)
  })

  it('keeps custom, local shell, server-side and unknown calls; array outputs with images', () => {
    const items = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAABBBB', detail: 'auto' },
        ],
      },
      {
        type: 'custom_tool_call',
        id: 'ctc_1',
        call_id: 'call_p',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** End Patch',
      },
      {
        type: 'local_shell_call',
        id: 'lsh_1',
        call_id: 'call_s',
        status: 'completed',
        action: { type: 'exec', command: ['ls'] },
      },
      {
        type: 'file_search_call',
        id: 'fs_1',
        status: 'completed',
        queries: ['q'],
        results: [{ text: 'hit' }],
      },
      { type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBORw0KGgo=' },
      { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
      { type: 'local_shell_call_output', call_id: 'call_s', output: 'a.txt' },
      {
        type: 'function_call_output',
        call_id: 'call_x',
        output: [
          { type: 'input_text', text: 'shot:' },
          { type: 'input_image', file_id: 'file-9' },
        ],
      },
      { type: 'item_reference', id: 'msg_old' },
    ]
    const r = importer.parse(sniff(JSON.stringify(items)))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const c = r.conversation
    expect(c.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'user',
    ])
    expect(c.messages[0]?.parts[1]).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      bytes: 6,
    })
    const calls = parts(c, 'tool_call')
    expect(calls).toMatchObject([
      { callType: 'custom', callId: 'call_p', argsRaw: '*** Begin Patch\n*** End Patch' },
      { callType: 'local_shell_call', callId: 'call_s', args: { type: 'exec', command: ['ls'] } },
      { callType: 'file_search_call', callId: 'fs_1', serverSide: true, name: 'file_search' },
      { callType: 'image_generation_call', callId: 'ig_1', serverSide: true },
    ])
    expect(parts(c, 'image').some((p) => p.kind === 'image' && p.data === 'iVBORw0KGgo=')).toBe(
      true,
    )
    expect(c.messages[4]?.parts[0]).toMatchObject({
      content: [
        { kind: 'text', text: 'shot:' },
        { kind: 'image', fileId: 'file-9' },
      ],
    })
    expect(c.messages[5]).toMatchObject({
      injected: true,
      parts: [{ kind: 'opaque', opaque: { label: 'item_reference item' } }],
    })
    expect(r.warnings).toEqual([])
    expect(JSON.parse(importer.serialize(c))).toEqual(items)
    roundTripMarkers(c)
  })

  it('turns compaction items into an opaque injected message plus an upstream marker', () => {
    const body = {
      model: 'gpt-4.1',
      context_management: [{ type: 'compaction', compact_threshold: 1000 }],
      input: [
        { role: 'user', content: 'story 1' },
        { role: 'assistant', content: 'Once…' },
        { type: 'compaction', id: 'cmp_1', encrypted_content: ENC },
        { role: 'user', content: 'What is 2+2?' },
      ],
    }
    const c = load(body)
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user'])
    expect(c.messages[2]).toMatchObject({
      id: 'cmp_1',
      injected: true,
      parts: [{ kind: 'opaque', opaque: { label: 'encrypted compaction', bytes: ENC.length } }],
    })
    expect(c.markers).toEqual([
      { kind: 'upstream_compaction', beforeIndex: 2, origin: 'responses-compaction' },
    ])
    expect(JSON.parse(importer.serialize(c))).toEqual(body)
    roundTripMarkers(c)
  })

  it('places a compaction emitted among output items after the model turn', () => {
    const capture = [
      {
        request: {
          method: 'POST',
          uri: 'https://api.openai.com/v1/responses',
          body: { model: 'gpt-4.1', input: [{ role: 'user', content: 'story' }] },
        },
        response: {
          status: 200,
          body: {
            object: 'response',
            output: [
              {
                type: 'message',
                id: 'msg_a',
                role: 'assistant',
                content: [{ type: 'output_text', text: 'Once…' }],
              },
              { type: 'compaction', id: 'cmp_a', encrypted_content: ENC },
            ],
            usage: { input_tokens: 847, output_tokens: 1179 },
          },
        },
      },
    ]
    const c = load(capture)
    expect(c.messages.map((m) => `${m.role}:${m.id}`)).toEqual([
      'user:m0',
      'assistant:msg_a',
      'user:cmp_a',
    ])
    expect(c.messages[1]?.usage?.contextTokens).toBe(847)
    expect(c.markers[0]?.beforeIndex).toBe(2)
    expect(JSON.parse(importer.serialize(c))).toEqual(capture)
    roundTripMarkers(c)
  })

  it('serializes what is left after a strategy removed or added parts', () => {
    const c = load(request)
    const messages = c.messages
      .filter((m) => m.role !== 'tool')
      .map((m) =>
        m.id === 'rs_1'
          ? { ...m, parts: [...m.parts.slice(1), { kind: 'text' as const, text: 'summary' }] }
          : m,
      )
    const r = importer.parse(sniff(importer.serialize({ ...c, messages })))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    // Without the tool outputs between them, the two model turns are adjacent output items:
    // the Responses format cannot tell them apart, so they load as one turn.
    expect(r.conversation.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ])
    expect(r.conversation.messages[2]?.parts.map((p) => p.kind)).toEqual([
      'tool_call',
      'tool_call',
      'text',
      'text',
    ])
  })

  it('appends the response of a capture with usage (contextTokens = input_tokens)', () => {
    const capture = [
      {
        request: {
          method: 'POST',
          uri: 'https://api.openai.com/v1/responses',
          body: { model: 'gpt-5', input: 'Weather?', previous_response_id: 'resp_0' },
        },
        response: { status: 200, body: responseBody },
      },
    ]
    const c = load(capture)
    expect(c.meta.historyIncomplete).toMatch(/resp_0/)
    expect(c.messages.map((m) => m.id)).toEqual(['m0', 'rs_9'])
    const turn = c.messages[1]
    expect(turn?.parts.map((p) => p.kind)).toEqual(['reasoning', 'tool_call', 'text'])
    expect(turn?.parts[1]).toMatchObject({ serverSide: true, callId: 'ws_1', name: 'web_search' })
    expect(turn).toMatchObject({ model: 'gpt-5-2025', timestamp: '2023-11-14T22:13:20.000Z' })
    expect(turn?.usage).toEqual({
      contextTokens: 120,
      inputTokens: 120,
      outputTokens: 30,
      cacheReadTokens: 100,
      reasoningTokens: 20,
      source: 'responses usage',
    })
    expect(JSON.parse(importer.serialize(c))).toEqual(capture)
    roundTripMarkers(c)
  })

  it('reads SSE streams: response.completed preferred, cut-off streams rebuilt with a warning', () => {
    const full = load(sse(true))
    expect(full.messages).toHaveLength(1)
    expect(full.messages[0]?.usage?.contextTokens).toBe(120)
    roundTripMarkers(full)
    const r = importer.parse(sniff(sse(false)))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages[0]?.parts).toHaveLength(3)
    expect(r.warnings[0]?.message).toMatch(/no `response.completed`/)
  })

  it('exposes a reusable item mapping', () => {
    const warned: string[] = []
    const items = [
      { type: 'function_call', id: 'fc_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'x' },
    ]
    const parsed = parseResponseItems(items, {
      ids: new IdAllocator(),
      indexBase: 10,
      messageBase: 0,
      warn: (i, m) => warned.push(`${i}: ${m}`),
    })
    expect(parsed.messages.map((m) => m.id)).toEqual(['fc_1', 'm11'])
    expect(parsed.messages[0]?.parts[0]).toMatchObject({ callId: null })
    expect(warned[0]).toMatch(/^0: `function_call` has no `call_id`/)
    expect(serializeResponseItems(parsed.messages)).toEqual(items)
  })
})
