import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'
import { load, parts, weather } from './fixtures.mts'

describe('openai-chat detection', () => {
  it('claims a request with tool calls with high confidence and evidence', () => {
    const d = importer.detect(sniff(JSON.stringify(weather)))
    expect(d?.format).toBe('openai-chat')
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/tool_calls\[\]\.function/)
    expect(d?.evidence.join(' ')).toMatch(/1 tool\(s\) shaped/)
  })

  it('treats plain user/assistant arrays as ambiguous (≤ 0.4)', () => {
    const d = importer.detect(
      sniff(
        JSON.stringify([
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ]),
      ),
    )
    expect(d?.confidence).toBeLessThanOrEqual(0.4)
    expect(d?.evidence.join(' ')).toMatch(/ambiguous/)
  })

  it('does not claim near-misses of other formats', () => {
    const anthropic = {
      model: 'claude',
      system: 'x',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'n', input: {} }] },
      ],
    }
    expect(importer.detect(sniff(JSON.stringify(anthropic)))).toBeNull()
    const aiSdk = [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'n', input: {} }],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', output: {} }] },
    ]
    expect(importer.detect(sniff(JSON.stringify(aiSdk)))).toBeNull()
    const responses = { model: 'gpt-5', input: [{ role: 'user', content: 'hi' }] }
    expect(importer.detect(sniff(JSON.stringify(responses)))).toBeNull()
    const gemini = [{ role: 'model', parts: [{ text: 'x' }] }]
    expect(importer.detect(sniff(JSON.stringify(gemini)))).toBeNull()
    const codexLine = JSON.stringify({
      type: 'response_item',
      payload: { role: 'user', content: [] },
    })
    expect(importer.detect(sniff(`${codexLine}\n${codexLine}\n`))).toBeNull()
  })

  it('recognises responses, streams and tau-bench results', () => {
    const resp = {
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }],
    }
    expect(importer.detect(sniff(JSON.stringify(resp)))?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(importer.detect(sniff(stream))?.confidence).toBeGreaterThanOrEqual(0.9)
    const tau = [{ task_id: 1, reward: 1, info: {}, traj: weather.messages, trial: 0 }]
    const d = importer.detect(sniff(JSON.stringify(tau)))
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence[0]).toMatch(/tau-bench/)
  })
})

const stream = [
  'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}',
  'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"weather","arguments":"{\\"ci"}}]}}]}',
  'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_y","type":"function","function":{"name":"time","arguments":""}}]}}]}',
  'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\":\\"Oslo\\"}"}}]}}]}',
  'data: {"id":"chatcmpl-9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":9}}',
  'data: [DONE]',
  '',
].join('\n\n')

describe('openai-chat parsing', () => {
  it('keeps parallel calls, out-of-order results, raw args and tools', () => {
    const c = load(weather)
    expect(c.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ])
    expect(c.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5'])
    const calls = parts(c, 'tool_call')
    expect(calls).toMatchObject([
      { callId: 'call_a', name: 'weather', argsRaw: '{"city":"Oslo"}', args: { city: 'Oslo' } },
      { callId: 'call_b', argsRaw: '{"city":"Rome"' },
    ])
    expect(calls[1]).toHaveProperty('argsError')
    expect(parts(c, 'tool_result').map((p) => (p.kind === 'tool_result' ? p.callId : ''))).toEqual([
      'call_b',
      'call_a',
    ])
    expect(c.tools).toEqual([
      { name: 'weather', description: 'Get weather', raw: JSON.stringify(weather.tools[0]) },
    ])
    expect(c.meta.model).toBe('gpt-4o')
    roundTrip(importer, c)
  })

  it('writes content null / "" / absent / parts back in the same shape', () => {
    const msgs = [
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'ok' }] },
      { role: 'assistant', content: '', refusal: null },
    ]
    const c = load(msgs)
    const out = JSON.parse(importer.serialize(c)) as unknown
    expect(out).toEqual(msgs)
    roundTrip(importer, c)
  })

  it('maps reasoning, Gemini signatures, empty and missing ids, custom and legacy calls', () => {
    const sig = 'QUJDRA=='
    const msgs = [
      { role: 'developer', content: 'Rules.' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Calling.',
        reasoning_content: 'I should call f.',
        extra_content: { google: { thought_signature: sig } },
        tool_calls: [
          { id: '', type: 'function', function: { name: 'f', arguments: '{}' } },
          { type: 'function', function: { name: 'g', arguments: '{}' } },
          { id: 'cu1', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } },
        ],
      },
      { role: 'tool', tool_call_id: '', content: 'r1' },
      { role: 'tool', content: 'r2' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: '',
        function_call: { name: 'old', arguments: '{"x":1}' },
      },
      { role: 'function', name: 'old', content: 'legacy result' },
    ]
    const r = importer.parse(sniff(JSON.stringify(msgs)))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const c = r.conversation
    expect(c.messages[0]).toMatchObject({ role: 'system', source: { role: 'developer' } })
    const a = c.messages[2] as Message
    expect(a.parts.map((p) => p.kind)).toEqual([
      'reasoning',
      'text',
      'tool_call',
      'tool_call',
      'tool_call',
      'opaque',
    ])
    expect(a.parts[5]).toMatchObject({
      kind: 'opaque',
      opaque: { label: 'thought_signature', bytes: sig.length, data: sig },
    })
    const calls = parts(c, 'tool_call')
    expect(calls.map((p) => (p.kind === 'tool_call' ? p.callId : undefined))).toEqual([
      '',
      null,
      'cu1',
      null,
    ])
    expect(calls[2]).toMatchObject({ callType: 'custom', argsRaw: '*** Begin Patch' })
    expect(calls[3]).toMatchObject({ callType: 'function_call', name: 'old', args: { x: 1 } })
    expect(c.messages[6]).toMatchObject({
      role: 'tool',
      source: { role: 'function' },
      parts: [{ callId: null, name: 'old' }],
    })
    expect(
      parts(c, 'tool_result').map((p) => (p.kind === 'tool_result' ? p.callId : undefined)),
    ).toEqual(['', null, null])
    // A tool message without tool_call_id is worth a warning but still loads.
    expect(
      r.warnings.some((w) => /message 4: tool message has no `tool_call_id`/.test(w.message)),
    ).toBe(true)
    expect(JSON.parse(importer.serialize(c))).toEqual(msgs)
    roundTrip(importer, c)
  })

  it('keeps images (data URL bytes, https URL), audio and files', () => {
    const b64 = 'iVBORw0KGgoAAAANSUhEUg=='
    const msgs = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}`, detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
          },
          { type: 'file', file: { file_id: 'file-1' } },
        ],
      },
    ]
    const c = load(msgs)
    const p = c.messages[0]?.parts ?? []
    expect(p[1]).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      data: b64,
      bytes: 16,
      detail: 'low',
    })
    expect(p[2]).toMatchObject({ kind: 'image', url: 'https://example.com/cat.jpg', bytes: 0 })
    expect(p[3]).toMatchObject({ kind: 'file', mediaType: 'audio/wav', bytes: 3 })
    expect(p[4]).toMatchObject({
      kind: 'file',
      mediaType: 'application/pdf',
      filename: 'a.pdf',
      bytes: 5,
    })
    expect(p[5]).toMatchObject({ kind: 'file', fileId: 'file-1', bytes: 0 })
    expect(JSON.parse(importer.serialize(c))).toEqual(msgs)
    roundTrip(importer, c)
  })

  it('appends the response of a capture with its usage, and round-trips the capture', () => {
    const capture = [
      {
        request: {
          method: 'POST',
          uri: 'https://api.deepseek.com/chat/completions',
          body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        },
        response: {
          status: 200,
          body: {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1700000000,
            model: 'm-2',
            choices: [
              { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hello' } },
            ],
            usage: {
              prompt_tokens: 12,
              completion_tokens: 3,
              prompt_tokens_details: { cached_tokens: 8 },
            },
          },
        },
      },
    ]
    const c = load(capture)
    expect(c.meta.wrapper).toBe('vcr')
    const last = c.messages[1]
    expect(last).toMatchObject({
      id: 'chatcmpl-1',
      role: 'assistant',
      model: 'm-2',
      timestamp: '2023-11-14T22:13:20.000Z',
    })
    expect(last?.usage).toEqual({
      contextTokens: 12,
      inputTokens: 12,
      outputTokens: 3,
      cacheReadTokens: 8,
      source: 'openai chat usage',
    })
    expect(JSON.parse(importer.serialize(c))).toEqual(capture)
    roundTrip(importer, c)
  })

  it('reassembles a streamed response by tool-call index', () => {
    const capture = [
      {
        request: {
          uri: 'https://api.openai.com/v1/chat/completions',
          body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'q' }] },
        },
        response: { status: 200, body: stream },
      },
    ]
    const c = load(capture)
    const last = c.messages[1]
    expect(last?.id).toBe('chatcmpl-9')
    expect(last?.usage?.contextTokens).toBe(50)
    expect(last?.parts).toMatchObject([
      { kind: 'tool_call', callId: 'call_x', name: 'weather', argsRaw: '{"city":"Oslo"}' },
      { kind: 'tool_call', callId: 'call_y', name: 'time', argsRaw: '' },
    ])
    roundTrip(importer, c)
    // A bare stream paste is a one-turn conversation.
    const alone = load(stream)
    expect(alone.messages).toHaveLength(1)
  })

  it('loads a response body alone as a one-turn conversation', () => {
    const resp = {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'a' }, finish_reason: 'stop' },
        { index: 1, message: { role: 'assistant', content: 'b' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    }
    const c = load(resp)
    expect(c.messages).toHaveLength(1)
    expect(c.meta.notes?.some((n) => /2 choices/.test(n))).toBe(true)
    expect(JSON.parse(importer.serialize(c))).toMatchObject({
      id: 'chatcmpl-2',
      choices: [{ message: { content: 'a' } }],
    })
    roundTrip(importer, c)
  })

  it('picks the first tau-bench conversation and points to the others (items)', () => {
    const tau = [
      { task_id: 7, reward: 1, info: { a: 1 }, traj: weather.messages, trial: 0 },
      { task_id: 8, reward: 0, info: {}, traj: [{ role: 'user', content: 'x' }], trial: 0 },
    ]
    const c = load(tau)
    expect(c.meta.wrapper).toBe('tau-bench')
    expect(c.messages).toHaveLength(6)
    expect(c.meta.notes?.join('\n')).toMatch(/the other 1 open from the item list/)
    const back = JSON.parse(importer.serialize(c)) as { task_id: number; traj: unknown[] }[]
    expect(back[0]?.task_id).toBe(7)
    roundTrip(importer, c)
  })
})

describe('openai-chat serializer after edits', () => {
  it('writes what is left when messages or the response turn were removed', () => {
    const capture = [
      {
        request: {
          uri: 'https://api.openai.com/v1/chat/completions',
          body: { model: 'm', messages: weather.messages },
        },
        response: {
          status: 200,
          body: {
            id: 'chatcmpl-3',
            choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }],
          },
        },
      },
    ]
    const c = load(capture)
    const edited: Conversation = {
      ...c,
      messages: c.messages.filter((m) => m.role !== 'tool' && m.id !== 'chatcmpl-3'),
    }
    const r = importer.parse(sniff(importer.serialize(edited)))
    expect(r.ok).toBe(true)
    if (r.ok)
      expect(r.conversation.messages.map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'assistant',
      ])
  })
})
