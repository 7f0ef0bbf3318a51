import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { lineOfOffset } from '../util.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile } from '../testing-corpus.mts'
import { roundTripMarkers, parts } from './fixtures.mts'

describe('openai-responses bad input', () => {
  it('fails on an unusable `input`, naming line and offset', () => {
    const text = '{\n  "model": "gpt-5",\n  "input": 42\n}'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toMatchObject({ line: 3, offset: text.indexOf('42') })
    expect(r.error.message).toMatch(
      /expected `input` to be a string or an array of items, got a number/,
    )
  })

  it('warns about bad items with their position and loads the rest', () => {
    const text = JSON.stringify(
      {
        model: 'm',
        input: [{ role: 'user', content: 'a' }, 7, { type: 'mystery_item', x: 1 }, { foo: 1 }],
      },
      null,
      2,
    )
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const offset = text.indexOf('7,')
    expect(r.warnings[0]).toEqual({
      line: lineOfOffset(text, offset),
      offset,
      message: 'input[1]: item skipped: expected an object with `type` or `role`, got a number',
    })
    expect(r.warnings[1]?.message).toMatch(/input\[2\]: unknown item type `mystery_item`/)
    expect(r.warnings[2]?.message).toMatch(/input\[3\]: item skipped/)
    expect(r.conversation.messages).toHaveLength(2)
    roundTripMarkers(r.conversation)
  })

  it('refuses JSON Lines (Codex territory) and plain text', () => {
    const r = importer.parse(
      sniff('{"type":"session_meta","payload":{}}\n{"type":"response_item","payload":{}}\n'),
    )
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/JSON Lines/)
    expect(importer.parse(sniff('hello')).ok).toBe(false)
  })
})

const corpus = corpusFiles('openai-responses')
if (!corpus.present) console.log(corpus.skipMessage)

describe('openai-responses corpus', () => {
  it.skipIf(!corpus.present)('has files', () => expect(corpus.files.length).toBeGreaterThan(0))
  for (const f of corpus.files) {
    it(f.name, () => {
      const { name: file, text } = f
      const { conversation: c, warnings } = importCorpusFile(importer, f)
      expect(c.messages.length).toBeGreaterThan(0)
      const calls = parts(c, 'tool_call').length
      const results = parts(c, 'tool_result').length
      console.log(
        `${file}: ${c.messages.length} messages, ${calls} tool calls, ${results} tool results, ${c.markers.length} compaction markers, ${warnings.length} warnings`,
      )
      // Counts against the raw file (last request's input + its response output).
      const items = rawItems(JSON.parse(text) as unknown)
      const count = (re: RegExp) => items.filter((i) => re.test(String(i.type))).length
      expect(calls).toBe(count(/_call$/))
      expect(results).toBe(count(/_output$/))
      expect(c.markers.length).toBe(count(/^compaction$/))
      expect(warnings).toEqual([])
      roundTripMarkers(c)
    })
  }
})

type RawItem = { type?: string }

function rawItems(raw: unknown): RawItem[] {
  if (Array.isArray(raw)) {
    const last = raw[raw.length - 1] as {
      request: { body: { input: RawItem[] } }
      response: { body: { output: RawItem[] } }
    }
    return [...last.request.body.input, ...last.response.body.output]
  }
  return (raw as { input: RawItem[] }).input
}
