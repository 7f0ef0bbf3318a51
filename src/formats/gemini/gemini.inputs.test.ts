import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile } from '../testing-corpus.mts'
import { allParts, load, RESPONSE, roundTripAll, SSE } from './fixtures.mts'

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
    roundTripAll(conv)
    expect(load(importer.serialize(conv)).conv.messages[1]?.usage).toEqual(conv.messages[1]?.usage)
  })

  it('loads a response alone', () => {
    const { conv } = load(JSON.stringify(RESPONSE))
    expect(conv.messages).toHaveLength(1)
    expect(conv.messages[0]?.parts.map((p) => p.kind)).toEqual(['tool_call', 'opaque'])
    roundTripAll(conv)
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
    roundTripAll(conv)
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
    roundTripAll(conv)
  })

  it('fails when nothing usable is left', () => {
    const r = importer.parse(sniff('{"contents": [1, 2]}'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/at least one usable Content/)
  })
})

const corpus = corpusFiles('gemini')
if (!corpus.present) console.log(corpus.skipMessage)

describe('gemini corpus', () => {
  it.skipIf(!corpus.present)('has files', () => expect(corpus.files.length).toBeGreaterThan(0))
  for (const file of corpus.files) {
    const name = file.name
    it(name, () => {
      const { conversation: conv, warnings } = importCorpusFile(importer, file)
      expect(conv.messages.length).toBeGreaterThan(0)
      roundTripAll(conv)
      const parts = allParts(conv)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      const opaque = parts.filter(
        (p) => p.kind === 'opaque' || (p.kind === 'reasoning' && p.opaque),
      ).length
      console.log(
        `gemini/${name}: ${conv.messages.length} messages, ${calls} calls, ${results} results, ${opaque} signatures, ${warnings.length} warnings`,
      )
      // Counts checked against SOURCES.md: 3 contents per request, +1 turn from the response.
      const exchange = name.endsWith('.exchanges.json')
      expect(conv.messages.length).toBe(exchange ? 4 : 3)
      if (name.includes('tool_output')) expect([calls, results]).toEqual([exchange ? 2 : 1, 1])
      if (name.includes('other_model')) expect([calls, results]).toEqual([exchange ? 2 : 1, 1])
      if (name.includes('thinking_part'))
        expect(parts.filter((p) => p.kind === 'reasoning')).toHaveLength(exchange ? 2 : 1)
      if (exchange) expect(conv.messages.at(-1)?.usage?.contextTokens).toBeGreaterThan(0)
      expect(warnings).toEqual([])
    })
  }
})
