import { describe, expect, it } from 'vitest'
import type { Conversation } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, roundTrip } from '../testing-corpus.mts'

function load(value: unknown): Conversation {
  const r = importer.parse(sniff(JSON.stringify(value)))
  if (!r.ok) throw new Error(r.error.message)
  return r.conversation
}

const kinds = (conv: Conversation) =>
  conv.messages.map((m) => `${m.id}:${m.role}:${m.parts.map((p) => p.kind).join(',')}`)

// v5 ModelMessage[] (response.messages style): parallel calls, results out of order.
const modelV5 = [
  { role: 'system', content: 'be helpful' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'what is in this image?' },
      { type: 'image', image: 'data:image/png;base64,AAAA', mediaType: 'image/png' },
      {
        type: 'file',
        data: 'https://x.test/a.pdf',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: 'look twice',
        providerOptions: { anthropic: { signature: 'c2ln' } },
      },
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: { city: 'Rome' } },
      {
        type: 'tool-call',
        toolCallId: 'ws',
        toolName: 'web_search',
        input: {},
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'ws',
        toolName: 'web_search',
        output: { type: 'json', value: { hits: 2 } },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'weather',
        output: { type: 'text', value: '18C' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        output: { type: 'error-text', value: 'timeout' },
      },
    ],
  },
  { role: 'assistant', content: 'Rome is 18C.' },
]

// v4 CoreMessage[]: args/result/isError, redacted reasoning.
const modelV4 = [
  { role: 'user', content: 'hi' },
  {
    role: 'assistant',
    content: [
      { type: 'redacted-reasoning', data: 'ZW5jcnlwdGVk' },
      { type: 'tool-call', toolCallId: '', toolName: 'lookup', args: { q: 1 } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: '',
        toolName: 'lookup',
        result: { ok: true },
        isError: false,
      },
    ],
  },
]

// v5 UIMessage[]: one assistant message with two steps, tool parts holding call + result.
const ui = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'weather?' }] },
  {
    id: 'a1',
    role: 'assistant',
    metadata: { model: 'gpt-5' },
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'need a tool' },
      {
        type: 'tool-weather',
        toolCallId: 't1',
        state: 'output-available',
        input: { city: 'Paris' },
        output: { temp: 20 },
      },
      {
        type: 'dynamic-tool',
        toolName: 'mcp_x',
        toolCallId: 't2',
        state: 'output-error',
        input: {},
        errorText: 'boom',
      },
      { type: 'step-start' },
      { type: 'data-weather', id: 'd1', data: { city: 'Paris' } },
      { type: 'text', text: 'It is 20C.' },
      { type: 'tool-notify', toolCallId: 't3', state: 'input-available', input: { msg: 'hi' } },
      { type: 'source-url', sourceId: 's1', url: 'https://x.test' },
    ],
  },
]

describe('ai-sdk detection', () => {
  it('recognises ModelMessage by tool-call/tool-result parts and UIMessage by its parts', () => {
    const m = importer.detect(sniff(JSON.stringify(modelV5)))
    expect(m?.format).toBe('ai-sdk')
    expect(m?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(m?.evidence.join(' ')).toMatch(/tool-call/)
    const u = importer.detect(sniff(JSON.stringify(ui)))
    expect(u?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(u?.evidence.join(' ')).toMatch(/tool-<name>/)
  })
  it('does not claim OpenAI chat (role tool with tool_call_id) or Gemini contents', () => {
    const openai = [
      { role: 'user', content: [{ type: 'text', text: 'x' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
    ]
    expect(importer.detect(sniff(JSON.stringify(openai)))).toBeNull()
    expect(
      importer.detect(sniff(JSON.stringify([{ role: 'user', parts: [{ text: 'x' }] }]))),
    ).toBeNull()
    expect(
      importer.detect(
        sniff(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })),
      ),
    ).toBeNull()
  })
})

describe('ai-sdk ModelMessage', () => {
  const conv = load(modelV5)
  it('maps every part kind', () => {
    expect(kinds(conv)).toEqual([
      'm0:system:text',
      'm1:user:text,image,file',
      'm2:assistant:reasoning,text,tool_call,tool_call,tool_call,tool_result',
      'm3:tool:tool_result,tool_result',
      'm4:assistant:text',
    ])
    const r = conv.messages[2]?.parts[0]
    expect(r?.kind === 'reasoning' && r.opaque?.bytes).toBe(4)
    const ws = conv.messages[2]?.parts[4]
    expect(ws?.kind === 'tool_call' && ws.serverSide).toBe(true)
    const img = conv.messages[1]?.parts[1]
    expect(img?.kind === 'image' && img.bytes).toBe(3)
  })
  it('reads outputs (text, error, json) with results out of order', () => {
    const results = conv.messages[3]?.parts ?? []
    expect(results.map((p) => p.kind === 'tool_result' && [p.callId, p.isError])).toEqual([
      ['c2', false],
      ['c1', true],
    ])
    const inline = conv.messages[2]?.parts[5]
    expect(inline?.kind === 'tool_result' && inline.content[0]).toEqual({
      kind: 'text',
      text: '{"hits":2}',
    })
  })
  it('round-trips to the same messages', () => {
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(modelV5)
  })
  it('reads v4 args/result and redacted reasoning, keeping empty ids', () => {
    const c = load(modelV4)
    expect(importer.detect(sniff(JSON.stringify(modelV4)))?.confidence).toBeGreaterThanOrEqual(0.9)
    const call = c.messages[1]?.parts[1]
    expect(call?.kind === 'tool_call' && [call.callId, call.argsRaw]).toEqual(['', '{"q":1}'])
    const red = c.messages[1]?.parts[0]
    expect(red?.kind === 'reasoning' && [red.redacted, red.opaque?.bytes]).toEqual([true, 12])
    roundTrip(importer, c)
    expect(JSON.parse(importer.serialize(c))).toEqual(modelV4)
  })
})

describe('ai-sdk UIMessage', () => {
  const conv = load(ui)
  it('splits steps and tool parts into calls + tool messages', () => {
    expect(kinds(conv)).toEqual([
      'u1:user:text',
      'a1:assistant:reasoning,tool_call,tool_call',
      'a1#results:tool:tool_result,tool_result',
      'a1#step2:assistant:text,tool_call',
    ])
    const results = conv.messages[2]?.parts ?? []
    expect(results.map((p) => p.kind === 'tool_result' && [p.callId, p.name, p.isError])).toEqual([
      ['t1', 'weather', false],
      ['t2', 'mcp_x', true],
    ])
    const pending = conv.messages[3]?.parts[1]
    expect(pending?.kind === 'tool_call' && pending.callId).toBe('t3')
  })
  it('round-trips, rejoining steps with step-start, data and source parts in place', () => {
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(ui)
  })
  it('accepts `{messages}` wrappers and v4 tool-invocation parts', () => {
    const v4 = {
      id: 'chat1',
      messages: [
        { id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          id: 'a',
          role: 'assistant',
          parts: [
            {
              type: 'tool-invocation',
              toolInvocation: {
                state: 'result',
                toolCallId: 'x',
                toolName: 'f',
                args: {},
                result: 'done',
              },
            },
          ],
        },
      ],
    }
    const c = load(v4)
    expect(kinds(c)).toEqual(['u:user:text', 'a:assistant:tool_call', 'a#results:tool:tool_result'])
    roundTrip(importer, c)
    expect(JSON.parse(importer.serialize(c))).toEqual(v4)
  })
})

describe('ai-sdk bad input', () => {
  it('skips bad elements with a warning and fails when nothing is left', () => {
    const r = importer.parse(sniff(JSON.stringify([modelV5[4], { role: 'robot', content: 'x' }])))
    expect(r.ok).toBe(true)
    expect(r.warnings[0]?.message).toMatch(
      /messages\[1\]: expected \{role: system\|user\|assistant\|tool/,
    )
    expect(importer.parse(sniff('[1]')).ok).toBe(false)
    const broken = importer.parse(sniff('[{"role": "user", "content": [}'))
    expect(broken.ok).toBe(false)
    if (!broken.ok) expect(broken.error.line).toBe(1)
  })
})

const corpus = corpusFiles('ai-sdk', { why: 'does not exist (no public sample)' })
if (!corpus.present) console.log(corpus.skipMessage)

describe('ai-sdk corpus', () => {
  it.skipIf(!corpus.present)('has no corpus files to load', () => {
    expect(corpus.present).toBe(true)
  })
})

describe('ai-sdk serializer for conversations from other formats', () => {
  it('names each tool result after its call when the source did not', () => {
    const out = JSON.parse(
      importer.serialize({
        meta: { format: 'ai-sdk' },
        system: [],
        tools: [],
        markers: [],
        messages: [
          {
            id: 'a',
            role: 'assistant',
            parts: [{ kind: 'tool_call', callId: 'c1', name: 'Read', argsRaw: '{}', args: {} }],
          },
          {
            id: 't',
            role: 'tool',
            parts: [
              {
                kind: 'tool_result',
                callId: 'c1',
                content: [{ kind: 'text', text: 'ok' }],
                isError: false,
              },
            ],
          },
        ],
      }),
    ) as { content: { toolName?: string }[] }[]
    expect(out[1]?.content[0]?.toolName).toBe('Read')
  })
})
