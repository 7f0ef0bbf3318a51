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
  conv.messages.map((m) => `${m.role}:${m.parts.map((p) => p.kind).join(',')}`)

// Plain dicts (BaseMessage.model_dump()): an OpenAI-backed agent with parallel calls.
const dicts = [
  { type: 'system', content: 'be brief', additional_kwargs: {}, response_metadata: {} },
  { type: 'human', content: 'weather in Paris and Rome?', id: 'h1' },
  {
    type: 'ai',
    id: 'run-1',
    content: '',
    additional_kwargs: {
      tool_calls: [
        {
          id: 'call_p',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Paris"}' },
        },
        {
          id: 'call_r',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Rome"}' },
        },
      ],
      reasoning_content: 'two lookups',
    },
    response_metadata: { model_name: 'gpt-4o' },
    tool_calls: [
      { name: 'weather', args: { city: 'Paris' }, id: 'call_p', type: 'tool_call' },
      { name: 'weather', args: { city: 'Rome' }, id: 'call_r', type: 'tool_call' },
    ],
    invalid_tool_calls: [
      {
        name: 'weather',
        args: '{"city": ',
        id: 'call_x',
        error: 'bad json',
        type: 'invalid_tool_call',
      },
    ],
    usage_metadata: {
      input_tokens: 120,
      output_tokens: 30,
      total_tokens: 150,
      input_token_details: { cache_read: 100 },
      output_token_details: { reasoning: 5 },
    },
  },
  { type: 'tool', content: '18C', tool_call_id: 'call_r', name: 'weather', status: 'success' },
  { type: 'tool', content: 'not found', tool_call_id: 'call_p', name: 'weather', status: 'error' },
  { type: 'tool', content: [{ type: 'text', text: 'orphan' }], tool_call_id: '' },
  { type: 'ai', content: 'Rome 18C; Paris unknown.', tool_calls: [], invalid_tool_calls: [] },
]

// Anthropic-backed AIMessage: tool_use block in content AND the same call in tool_calls.
const anthropicAi = {
  type: 'ai',
  id: 'msg_1',
  content: [
    { type: 'thinking', thinking: 'look it up', signature: 'c2lnbmF0dXJl' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'x' } },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
  ],
  tool_calls: [{ name: 'search', args: { q: 'x' }, id: 'toolu_1', type: 'tool_call' }],
}

describe('langchain detection', () => {
  it('recognises dicts, messages_to_dict and lc:1 objects', () => {
    const d = importer.detect(sniff(JSON.stringify(dicts)))
    expect(d).toMatchObject({ format: 'langchain' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/7\/7/)
    const data = dicts.slice(0, 2).map((m) => ({ type: m.type, data: m }))
    expect(importer.detect(sniff(JSON.stringify(data)))?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(importer.detect(sniff(JSON.stringify([lcHuman])))?.confidence).toBeGreaterThanOrEqual(
      0.9,
    )
  })
  it('does not claim OpenAI chat, Claude Code or Responses items', () => {
    expect(importer.detect(sniff(JSON.stringify([{ role: 'user', content: 'x' }])))).toBeNull()
    expect(
      importer.detect(sniff(JSON.stringify([{ type: 'message', role: 'user', content: [] }]))),
    ).toBeNull()
    expect(
      importer.detect(sniff(JSON.stringify([{ type: 'user', message: { role: 'user' } }]))),
    ).toBeNull()
    const onlySystem = importer.detect(sniff(JSON.stringify([{ type: 'system', content: 'x' }])))
    expect(onlySystem?.confidence ?? 0).toBeLessThan(0.6)
  })
})

describe('langchain dict parsing', () => {
  const conv = load(dicts)
  it('maps types to roles and keeps one call per id', () => {
    expect(kinds(conv)).toEqual([
      'system:text',
      'user:text',
      'assistant:reasoning,tool_call,tool_call,tool_call',
      'tool:tool_result',
      'tool:tool_result',
      'tool:tool_result',
      'assistant:text',
    ])
    const calls = conv.messages[2]?.parts.filter((p) => p.kind === 'tool_call') ?? []
    expect(
      calls.map((c) => c.kind === 'tool_call' && [c.callId, c.argsRaw, c.argsError !== undefined]),
    ).toEqual([
      ['call_p', '{"city":"Paris"}', false],
      ['call_r', '{"city":"Rome"}', false],
      ['call_x', '{"city": ', true],
    ])
  })
  it('reads results out of order, error status and empty ids', () => {
    const results = conv.messages.slice(3, 6).map((m) => m.parts[0])
    expect(results.map((r) => r?.kind === 'tool_result' && [r.callId, r.isError])).toEqual([
      ['call_r', false],
      ['call_p', true],
      ['', false],
    ])
  })
  it('takes usage_metadata and the model name', () => {
    expect(conv.messages[2]?.usage).toMatchObject({
      contextTokens: 120,
      outputTokens: 30,
      cacheReadTokens: 100,
      reasoningTokens: 5,
    })
    expect(conv.meta.model).toBe('gpt-4o')
    expect(conv.messages[1]?.id).toBe('h1')
  })
  it('round-trips to the same dicts', () => {
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(dicts)
  })
  it('falls back to additional_kwargs.tool_calls only when nothing else records calls', () => {
    const old = [
      {
        type: 'ai',
        content: '',
        additional_kwargs: (dicts[2] as { additional_kwargs: unknown }).additional_kwargs,
      },
    ]
    const c = load(old)
    expect(c.messages[0]?.parts.filter((p) => p.kind === 'tool_call')).toHaveLength(2)
    roundTrip(importer, c)
  })
})

describe('langchain content blocks', () => {
  const conv = load([
    {
      type: 'human',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAAAA==' } },
      ],
    },
    anthropicAi,
  ])
  it('reads thinking, tool_use (deduplicated with tool_calls) and images', () => {
    expect(kinds(conv)).toEqual(['user:text,image', 'assistant:reasoning,text,tool_call,image'])
    const r = conv.messages[1]?.parts[0]
    expect(r?.kind === 'reasoning' && r.opaque?.bytes).toBe(12)
    const img = conv.messages[0]?.parts[1]
    expect(img?.kind === 'image' && [img.mediaType, img.bytes]).toEqual(['image/jpeg', 4])
  })
  it('round-trips both the block and the tool_calls entry', () => {
    roundTrip(importer, conv)
    const out = JSON.parse(importer.serialize(conv)) as unknown[]
    expect(out[1]).toEqual(anthropicAi)
  })
})

const lcHuman = {
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', 'HumanMessage'],
  kwargs: { content: 'hello', additional_kwargs: {} },
}
const lcAi = {
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'schema', 'messages', 'AIMessage'],
  kwargs: {
    content: 'hi!',
    tool_calls: [],
    usage_metadata: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  },
}

describe('langchain wrappers', () => {
  it('reads lc:1 constructors', () => {
    const conv = load([lcHuman, lcAi])
    expect(kinds(conv)).toEqual(['user:text', 'assistant:text'])
    expect(conv.messages[1]?.usage?.contextTokens).toBe(5)
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual([lcHuman, lcAi])
  })
  it('reads messages_to_dict, LangGraph state and LangSmith runs', () => {
    const mtd = [
      { type: 'human', data: { content: 'q', type: 'human' } },
      { type: 'ai', data: { content: 'a', type: 'ai', tool_calls: [] } },
    ]
    const c1 = load(mtd)
    expect(kinds(c1)).toEqual(['user:text', 'assistant:text'])
    expect(JSON.parse(importer.serialize(c1))).toEqual(mtd)
    const state = { messages: dicts.slice(1, 2), next: [] }
    const c2 = load(state)
    expect(JSON.parse(importer.serialize(c2))).toEqual(state)
    const run = {
      inputs: { messages: [[lcHuman]] },
      outputs: { generations: [[{ text: 'hi!', message: lcAi }]] },
      run_type: 'llm',
    }
    const c3 = load(run)
    expect(kinds(c3)).toEqual(['user:text', 'assistant:text'])
    expect(JSON.parse(importer.serialize(c3))).toEqual(run)
  })
})

describe('langchain bad input', () => {
  it('skips unknown elements with a warning; fails when none are messages', () => {
    const r = importer.parse(sniff(JSON.stringify([dicts[1], 42])))
    expect(r.ok).toBe(true)
    expect(r.warnings[0]?.message).toMatch(/messages\[1\]: expected a LangChain message/)
    const none = importer.parse(sniff('[1, 2]'))
    expect(none.ok).toBe(false)
    const text = importer.parse(sniff('not json'))
    expect(text.ok).toBe(false)
    if (!text.ok) expect(text.error.message).toMatch(/expected JSON LangChain messages/)
  })
})

const corpus = corpusFiles('langchain', { why: 'does not exist (no public sample)' })
if (!corpus.present) console.log(corpus.skipMessage)

describe('langchain corpus', () => {
  it.skipIf(!corpus.present)('has no corpus files to load', () => {
    expect(corpus.present).toBe(true)
  })
})
