import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { lineOfOffset } from '../util.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'
import { parts } from './fixtures.mts'

describe('openai-chat bad input', () => {
  it('fails with position and expectation when nothing is a conversation', () => {
    const r = importer.parse(sniff('{"model":"x","messages":"oops"}'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/`messages` is not an array/)
    const r2 = importer.parse(sniff('{"model": "x", "messages": [1, 2'))
    expect(r2.ok).toBe(false)
    if (!r2.ok) {
      expect(r2.error.line).toBe(1)
      expect(r2.error.offset).toBeGreaterThan(0)
    }
  })

  it('skips bad messages with a positioned warning and keeps the rest', () => {
    const text = JSON.stringify(
      {
        model: 'x',
        messages: [{ role: 'user', content: 'a' }, 'oops', { role: 'wizard', content: 'b' }],
      },
      null,
      2,
    )
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages).toHaveLength(1)
    const offset = text.indexOf('"oops"')
    expect(r.warnings[0]).toEqual({
      line: lineOfOffset(text, offset),
      offset,
      message: 'message 1 skipped: expected a message object with `role`, got a string',
    })
    expect(r.warnings[1]?.message).toMatch(/expected `role` to be one of .* got "wizard"/)
    roundTrip(importer, r.conversation)
    expect(r.warnings[1]?.line).toBe(lineOfOffset(text, text.indexOf('{\n      "role": "wizard"')))
  })

  it('fails when no message is usable, naming the first problem', () => {
    const r = importer.parse(sniff('[{"role":"user","content":"a"}]'.replace('"user"', '"robot"')))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/no usable message: .*robot/)
  })

  it('reads JSON Lines of messages and reports the truncated last line', () => {
    const text =
      '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n{"role":"user","con'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.messages.map((m) => m.line)).toEqual([1, 2])
    expect(r.warnings[0]?.line).toBe(3)
    roundTrip(importer, r.conversation)
  })
})

const corpus = corpusFiles('openai-chat')
if (!corpus.present) console.log(corpus.skipMessage)

describe('openai-chat corpus', () => {
  it.skipIf(!corpus.present)('has files', () => expect(corpus.files.length).toBeGreaterThan(0))
  for (const f of corpus.files) {
    it(f.name, () => {
      const { name: file, text } = f
      const { conversation: c, warnings } = importCorpusFile(importer, f)
      expect(c.messages.length).toBeGreaterThan(0)
      const calls = parts(c, 'tool_call').length
      const results = parts(c, 'tool_result').length
      console.log(
        `${file}: ${c.messages.length} messages, ${calls} tool calls, ${results} tool results, ${warnings.length} warnings`,
      )
      // Counts against the raw file: every tool_calls entry / tool message is loaded.
      const raw = JSON.parse(text) as unknown
      const rawMessages = rawConversation(raw)
      expect(calls).toBe(
        rawMessages.reduce(
          (n, m) => n + (Array.isArray(m.tool_calls) ? m.tool_calls.length : 0),
          0,
        ),
      )
      expect(results).toBe(rawMessages.filter((m) => m.role === 'tool').length)
      expect(c.messages.length).toBe(rawMessages.length)
      expect(warnings).toEqual([])
      roundTrip(importer, c)
    })
  }
})

type RawMsg = { role?: string; tool_calls?: unknown[] }

/** The messages a corpus file holds, read naively (last exchange's request + its response). */
function rawConversation(raw: unknown): RawMsg[] {
  if (Array.isArray(raw) && raw[0] && typeof raw[0] === 'object' && 'request' in raw[0]) {
    const last = raw[raw.length - 1] as {
      request: { body: { messages: RawMsg[] } }
      response: { body: { choices: { message: RawMsg }[] } }
    }
    const msg = last.response.body.choices[0]?.message
    return [...last.request.body.messages, ...(msg ? [msg] : [])]
  }
  if (Array.isArray(raw)) return raw as RawMsg[]
  return (raw as { messages: RawMsg[] }).messages
}
