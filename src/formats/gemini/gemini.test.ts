import { describe, expect, it } from 'vitest'
import { pairToolCalls } from '../../engine/pairing.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { load, PNG, REQUEST, RESPONSE, roundTripAll, SSE } from './fixtures.mts'

describe('gemini detection', () => {
  it('recognises requests, responses, bare contents and SSE chunks', () => {
    const req = importer.detect(sniff(JSON.stringify(REQUEST)))
    expect(req).toMatchObject({ format: 'gemini' })
    expect(req?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(req?.evidence.join(' ')).toMatch(/role "model"/)
    expect(importer.detect(sniff(JSON.stringify(RESPONSE)))?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(
      importer.detect(sniff(JSON.stringify(REQUEST.contents)))?.confidence,
    ).toBeGreaterThanOrEqual(0.9)
    expect(importer.detect(sniff(SSE))?.confidence).toBeGreaterThanOrEqual(0.9)
  })

  it('leaves near-misses alone: AI-SDK UIMessages, Gemini CLI sessions, Anthropic, opencode', () => {
    const ui = [{ id: '1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]
    expect(importer.detect(sniff(JSON.stringify(ui)))).toBeNull()
    const cli = { sessionId: 's', projectHash: 'p', messages: [{ type: 'gemini', content: 'x' }] }
    expect(importer.detect(sniff(JSON.stringify(cli)))).toBeNull()
    const anthropic = { max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }
    expect(importer.detect(sniff(JSON.stringify(anthropic)))).toBeNull()
    const opencode = [
      { info: { id: 'msg_1', role: 'user' }, parts: [{ type: 'text', text: 'hi' }] },
    ]
    expect(importer.detect(sniff(JSON.stringify(opencode)))).toBeNull()
  })
})

describe('gemini parsing', () => {
  it('maps parts, roles, ids, signatures and tools', () => {
    const { conv, warnings } = load(JSON.stringify(REQUEST))
    expect(warnings).toEqual([])
    expect(conv.messages.map((m) => `${m.id}:${m.role}`)).toEqual([
      'm0:user',
      'm1:assistant',
      'm2:user',
      'm3:assistant',
      'm4:user',
      'm5:assistant',
      'm6:user',
    ])
    expect(conv.system).toEqual([{ kind: 'text', text: 'Be brief.' }])
    expect(conv.tools.map((t) => t.name)).toEqual(['weather', 'lookup', 'googleSearch'])
    expect(conv.messages[0]?.parts[1]).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      bytes: 70,
      data: PNG,
    })

    const m1 = conv.messages[1]?.parts ?? []
    expect(m1.map((p) => p.kind)).toEqual(['reasoning', 'tool_call', 'opaque', 'tool_call'])
    expect(m1[0]).toMatchObject({
      kind: 'reasoning',
      text: 'Two cities, two calls.',
      opaque: { label: 'thoughtSignature', bytes: 8 },
    })
    // No ids: callId null, the engine pairs positionally.
    expect(m1[1]).toMatchObject({
      kind: 'tool_call',
      callId: null,
      name: 'weather',
      argsRaw: '{"city":"Oslo"}',
    })
    expect(m1[2]).toMatchObject({
      kind: 'opaque',
      opaque: { label: 'thoughtSignature', data: 'CiQBsig2' },
    })

    // functionResponse-only user turn stays a user turn, not injected.
    const m2 = conv.messages[2]
    expect(m2?.role).toBe('user')
    expect(m2?.injected).toBeUndefined()
    expect(m2?.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: null,
      name: 'weather',
      content: [{ kind: 'text', text: '4C' }],
    })
    expect(m2?.parts[1]).toMatchObject({
      content: [{ kind: 'text', text: '{"temp":7,"unit":"C"}' }],
    })

    // Ids kept when present, results out of order, `error` → isError.
    const m4 = conv.messages[4]?.parts ?? []
    expect(m4[0]).toMatchObject({
      kind: 'tool_result',
      callId: 'b',
      isError: true,
      content: [{ text: 'not found' }],
    })
    expect(m4[1]).toMatchObject({
      kind: 'tool_result',
      callId: 'a',
      isError: false,
      content: [{ text: 'found' }],
    })

    const m5 = conv.messages[5]?.parts ?? []
    expect(m5[0]).toMatchObject({
      kind: 'tool_call',
      serverSide: true,
      name: 'code_execution',
      args: { language: 'PYTHON', code: 'print(1+1)' },
    })
    expect(m5[1]).toMatchObject({
      kind: 'tool_result',
      name: 'code_execution',
      isError: false,
      content: [{ text: '2\n' }],
    })
    expect(m5[3]).toMatchObject({ kind: 'opaque', opaque: { label: 'thoughtSignature', bytes: 8 } })
    expect(conv.messages[6]?.parts[0]).toMatchObject({
      kind: 'file',
      url: 'gs://b/doc.pdf',
      mediaType: 'application/pdf',
    })
  })

  it('leaves pairing to the engine: id-less calls pair by position, ids by id', () => {
    const { conv } = load(JSON.stringify(REQUEST))
    const { results } = pairToolCalls(conv)
    const byMessage = results.map((r) => [r.message, r.pairedBy])
    expect(byMessage).toEqual([
      [2, 'position'],
      [2, 'position'],
      [4, 'id'],
      [4, 'id'],
      [5, expect.any(String)],
    ])
    expect(results.slice(0, 4).every((r) => r.call >= 0)).toBe(true)
  })

  it('round-trips to the same request body', () => {
    const { conv } = load(JSON.stringify(REQUEST))
    roundTripAll(conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(REQUEST)
  })

  it('reads snake_case keys and writes them back the same way', () => {
    const body = {
      system_instruction: { parts: [{ text: 'sys' }] },
      contents: [
        {
          role: 'user',
          parts: [{ text: 'hi' }, { inline_data: { mime_type: 'text/plain', data: 'aGk=' } }],
        },
        {
          role: 'model',
          parts: [{ function_call: { name: 'f', args: {} }, thought_signature: 'S1' }],
        },
        {
          role: 'function',
          parts: [{ function_response: { name: 'f', response: { output: 'ok' } } }],
        },
      ],
      tools: [
        { function_declarations: [{ name: 'f', parameters_json_schema: { type: 'object' } }] },
      ],
    }
    const { conv } = load(JSON.stringify(body))
    expect(conv.system).toEqual([{ kind: 'text', text: 'sys' }])
    expect(conv.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(conv.messages[0]?.parts[1]).toMatchObject({
      kind: 'file',
      mediaType: 'text/plain',
      bytes: 2,
    })
    expect(conv.messages[1]?.parts.map((p) => p.kind)).toEqual(['tool_call', 'opaque'])
    expect(conv.messages[2]?.parts[0]).toMatchObject({
      kind: 'tool_result',
      name: 'f',
      content: [{ text: 'ok' }],
    })
    roundTripAll(conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(body)
  })
})

describe('gemini: a malformed role (fuzz finding, issue 10)', () => {
  it('a response candidate is the model turn whatever its role field holds, and stays so when written', () => {
    const exchange = [
      {
        request: {
          uri: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
          body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
        },
        response: {
          status: 200,
          body: { candidates: [{ content: { role: [['x']], parts: [{ text: 'hello' }] } }] },
        },
      },
    ]
    const r = importer.parse(sniff(JSON.stringify(exchange)))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    const again = importer.parse(sniff(importer.serialize(r.conversation)))
    expect(again.ok && again.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
    ])
  })

  it('a non-string role in the request is read as user, with a warning', () => {
    const r = importer.parse(
      sniff(JSON.stringify({ contents: [{ role: 7, parts: [{ text: 'hi' }] }] })),
    )
    expect(r.ok && r.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/expected `role` to be a string, got a number; read as "user"/),
    ])
  })
})
