import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { pairToolCalls } from '../../engine/pairing.ts'
import { sniff } from '../sniff.ts'
import { digest } from '../testing.ts'
import { importer } from './index.ts'

function load(text: string) {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${JSON.stringify(r.error)}`)
  return { conv: r.conversation, warnings: r.warnings }
}

function roundTrip(conv: Conversation): void {
  const again = importer.parse(sniff(importer.serialize(conv)))
  if (!again.ok) throw new Error(`re-import failed: ${JSON.stringify(again.error)}`)
  expect(digest(again.conversation)).toEqual(digest(conv))
  expect(again.conversation.system).toEqual(conv.system)
  expect(again.conversation.tools).toEqual(conv.tools)
}

function allParts(conv: Conversation): Part[] {
  return conv.messages.flatMap((m) => m.parts)
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

const REQUEST = {
  systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Weather in Oslo and Bergen?' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Two cities, two calls.', thought: true, thoughtSignature: 'CiQBsig1' },
        { functionCall: { name: 'weather', args: { city: 'Oslo' } }, thoughtSignature: 'CiQBsig2' },
        { functionCall: { name: 'weather', args: { city: 'Bergen' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'weather', response: { output: '4C' } } },
        { functionResponse: { name: 'weather', response: { temp: 7, unit: 'C' } } },
      ],
    },
    {
      role: 'model',
      parts: [
        { functionCall: { id: 'a', name: 'lookup', args: { q: 'x' } } },
        { functionCall: { id: 'b', name: 'lookup', args: { q: 'y' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'b', name: 'lookup', response: { error: 'not found' } } },
        { functionResponse: { id: 'a', name: 'lookup', response: { result: 'found', extra: 1 } } },
      ],
    },
    {
      role: 'model',
      parts: [
        { executableCode: { language: 'PYTHON', code: 'print(1+1)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } },
        { text: 'It is 2.' },
        { thoughtSignature: 'CiQBlone' },
      ],
    },
    {
      role: 'user',
      parts: [
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/doc.pdf' } },
        { text: 'Summarise.' },
      ],
    },
  ],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'weather',
          description: 'Weather now',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
        },
        { name: 'lookup', parametersJsonSchema: { type: 'object' } },
      ],
    },
    { googleSearch: {} },
  ],
  generationConfig: { thinkingConfig: { includeThoughts: true } },
}

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
    roundTrip(conv)
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
    roundTrip(conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(body)
  })
})

const RESPONSE = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'final', args: { a: 1 } }, thoughtSignature: 'Zm9v' }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: {
    promptTokenCount: 107,
    candidatesTokenCount: 23,
    thoughtsTokenCount: 50,
    cachedContentTokenCount: 64,
    totalTokenCount: 180,
  },
  modelVersion: 'gemini-3-pro-preview',
  responseId: 'resp-1',
}

const SSE = [
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Thinking ","thought":true}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hard.","thought":true}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello "}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"world","thoughtSignature":"U0lH"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3},"responseId":"r-s"}',
  '',
].join('\n')

describe('gemini responses, exchanges and streams', () => {
  it('appends candidates[0] of a captured response with usageMetadata', () => {
    const capture = JSON.stringify([
      {
        request: {
          method: 'POST',
          uri: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent',
          body: { contents: [{ role: 'user', parts: [{ text: 'go' }] }] },
        },
        response: { status: 200, body: RESPONSE },
      },
    ])
    const { conv } = load(capture)
    expect(conv.messages.map((m) => `${m.id}:${m.role}`)).toEqual(['m0:user', 'resp-1:assistant'])
    expect(conv.messages[1]?.usage).toMatchObject({
      contextTokens: 107,
      outputTokens: 23,
      reasoningTokens: 50,
      cacheReadTokens: 64,
    })
    expect(conv.messages[1]?.model).toBe('gemini-3-pro-preview')
    expect(conv.meta.model).toBe('gemini-3-pro-preview')
    roundTrip(conv)
    expect(load(importer.serialize(conv)).conv.messages[1]?.usage).toEqual(conv.messages[1]?.usage)
  })

  it('loads a response alone', () => {
    const { conv } = load(JSON.stringify(RESPONSE))
    expect(conv.messages).toHaveLength(1)
    expect(conv.messages[0]?.parts.map((p) => p.kind)).toEqual(['tool_call', 'opaque'])
    roundTrip(conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(RESPONSE)
  })

  it('merges SSE chunks into one turn (text joined, signature kept)', () => {
    const { conv, warnings } = load(SSE)
    expect(warnings).toEqual([])
    const m = conv.messages[0]
    expect(m?.id).toBe('r-s')
    expect(m?.parts).toEqual([
      { kind: 'reasoning', text: 'Thinking hard.', textKind: 'summary' },
      { kind: 'text', text: 'Hello world' },
      {
        kind: 'opaque',
        opaque: { label: 'thoughtSignature', bytes: 4, data: 'U0lH' },
        meta: { signatureOf: 'previous' },
      },
    ])
    expect(m?.usage?.contextTokens).toBe(12)
    roundTrip(conv)
  })

  it('warns when a stream is cut off and keeps what arrived', () => {
    const cut = SSE.split('\n').slice(0, 5).join('\n')
    const { conv, warnings } = load(cut)
    expect(conv.messages[0]?.parts.map((p) => p.kind)).toEqual(['reasoning', 'text'])
    expect(warnings[0]?.message).toMatch(/without a finishReason/)
  })

  it('merges a JSON array of response chunks', () => {
    const chunks = SSE.split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as unknown)
    const { conv } = load(JSON.stringify(chunks))
    expect(conv.messages[0]?.parts[1]).toEqual({ kind: 'text', text: 'Hello world' })
  })
})

describe('gemini bad input', () => {
  it('fails on broken JSON with line and offset', () => {
    const r = importer.parse(sniff('{\n "contents": [\n  {"role": "user" "parts": []}\n ]\n}'))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.line).toBe(3)
      expect(r.error.message).toMatch(/expected a Gemini JSON body/)
    }
  })

  it('fails when contents is not an array, naming where', () => {
    const text = '{\n  "contents": {"role": "user"}\n}'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatchObject({ line: 2, offset: text.indexOf('{"role"') })
      expect(r.error.message).toMatch(/expected `contents` to be an array.*got an object/)
    }
  })

  it('skips bad contents with located warnings and keeps the rest', () => {
    const text = [
      '{"contents": [',
      '  {"role": "user", "parts": [{"text": "ok"}]},',
      '  "junk",',
      '  {"role": "robot", "parts": []},',
      '  {"role": "model", "parts": "nope"},',
      '  {"role": "model", "parts": [7, {"text": "fine"}]}',
      ']}',
    ].join('\n')
    const { conv, warnings } = load(text)
    expect(conv.messages).toHaveLength(2)
    expect(warnings.map((w) => w.line)).toEqual([3, 4, 5, 6])
    expect(warnings[0]?.offset).toBe(text.indexOf('"junk"'))
    expect(warnings[1]?.message).toMatch(/contents\[2\]: expected `role` "user" or "model"/)
    expect(warnings[3]?.message).toMatch(/contents\[4\]\.parts\[0\]: expected a part object/)
    roundTrip(conv)
  })

  it('fails when nothing usable is left', () => {
    const r = importer.parse(sniff('{"contents": [1, 2]}'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/at least one usable Content/)
  })
})

const CORPUS = path.resolve(__dirname, '../../../../shared/corpus/gemini')
const corpusExists = existsSync(CORPUS)
if (!corpusExists) console.log(`gemini corpus tests skipped: ${CORPUS} not found`)

describe('gemini corpus', () => {
  const files = corpusExists ? readdirSync(CORPUS).sort() : []
  it.skipIf(!corpusExists)('has files', () => expect(files.length).toBeGreaterThan(0))
  for (const name of files) {
    it.skipIf(!corpusExists)(name, () => {
      const input = sniff(readFileSync(path.join(CORPUS, name), 'utf8'))
      const d = importer.detect(input)
      expect(d?.format).toBe('gemini')
      expect(d?.confidence).toBeGreaterThanOrEqual(0.6)
      const r = importer.parse(input)
      if (!r.ok) throw new Error(JSON.stringify(r.error))
      const conv = r.conversation
      expect(conv.messages.length).toBeGreaterThan(0)
      roundTrip(conv)
      const parts = allParts(conv)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      const opaque = parts.filter(
        (p) => p.kind === 'opaque' || (p.kind === 'reasoning' && p.opaque),
      ).length
      console.log(
        `gemini/${name}: ${conv.messages.length} messages, ${calls} calls, ${results} results, ${opaque} signatures, ${r.warnings.length} warnings`,
      )
      // Counts checked against SOURCES.md: 3 contents per request, +1 turn from the response.
      const exchange = name.endsWith('.exchanges.json')
      expect(conv.messages.length).toBe(exchange ? 4 : 3)
      if (name.includes('tool_output')) expect([calls, results]).toEqual([exchange ? 2 : 1, 1])
      if (name.includes('other_model')) expect([calls, results]).toEqual([exchange ? 2 : 1, 1])
      if (name.includes('thinking_part'))
        expect(parts.filter((p) => p.kind === 'reasoning')).toHaveLength(exchange ? 2 : 1)
      if (exchange) expect(conv.messages.at(-1)?.usage?.contextTokens).toBeGreaterThan(0)
      expect(r.warnings).toEqual([])
    })
  }
})
