import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { load, REQUEST, roundTripAll, SIG, STREAM } from './fixtures.mts'

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
    roundTripAll(conv)
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
    roundTripAll(conv)
  })
})
