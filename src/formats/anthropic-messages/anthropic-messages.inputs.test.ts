import { describe, expect, it } from 'vitest'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile } from '../testing-corpus.mts'
import { load, parts, roundTripAll, STREAM } from './fixtures.mts'

const RESPONSE = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'compaction', content: 'sum' },
    { type: 'text', text: 'Hello' },
  ],
  stop_reason: 'end_turn',
  usage: {
    input_tokens: 20,
    cache_read_input_tokens: 100,
    cache_creation_input_tokens: 5,
    output_tokens: 8,
    iterations: [
      { type: 'compaction', input_tokens: 55196 },
      { type: 'message', input_tokens: 20 },
    ],
  },
}

describe('anthropic-messages request + response captures', () => {
  const exchange = JSON.stringify([
    {
      request: {
        method: 'POST',
        uri: 'https://api.anthropic.com/v1/messages',
        body: {
          model: 'claude-sonnet-4-6',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
        },
      },
      response: { status: 200, body: RESPONSE },
    },
  ])

  it('appends the response as the last assistant turn with its usage', () => {
    const { conv } = load(exchange)
    expect(conv.messages.map((m) => [m.id, m.role])).toEqual([
      ['m0', 'user'],
      ['msg_01', 'assistant'],
    ])
    expect(conv.messages[1]?.usage).toMatchObject({
      contextTokens: 125,
      inputTokens: 20,
      cacheReadTokens: 100,
      cacheWriteTokens: 5,
      outputTokens: 8,
    })
    expect(conv.messages[1]?.model).toBe('claude-sonnet-4-6')
    expect(conv.markers[0]).toMatchObject({ beforeIndex: 1, preTokens: 55196 })
    expect(conv.meta.wrapper).toBe('vcr')
    roundTripAll(conv)
    const again = load(importer.serialize(conv)).conv
    expect(again.messages[1]?.usage).toEqual(conv.messages[1]?.usage)
  })

  it('loads a response alone as one assistant turn', () => {
    const { conv } = load(JSON.stringify(RESPONSE))
    expect(conv.messages).toHaveLength(1)
    expect(conv.meta.notes?.join(' ')).toMatch(/single response/)
    roundTripAll(conv)
  })
})

describe('anthropic-messages SSE streams', () => {
  it('reassembles text, thinking, signature and tool input deltas', () => {
    const { conv, warnings } = load(STREAM)
    expect(warnings).toEqual([])
    const m = conv.messages[0]
    expect(m?.id).toBe('msg_s')
    expect(m?.parts[0]).toMatchObject({
      kind: 'reasoning',
      text: 'Let me think.',
      opaque: { data: 'SIGSIG' },
    })
    expect(m?.parts[1]).toEqual({ kind: 'text', text: 'Calling.' })
    expect(m?.parts[2]).toMatchObject({
      kind: 'tool_call',
      callId: 'toolu_S',
      args: { city: 'Oslo' },
    })
    expect(m?.usage).toMatchObject({ contextTokens: 30, outputTokens: 42 })
    roundTripAll(conv)
  })

  it('keeps a cut-off tool input raw and warns, inside an exchange capture', () => {
    const cut = STREAM.slice(0, STREAM.indexOf('"\\"Oslo')).split('\n').slice(0, -1).join('\n')
    const capture = JSON.stringify([
      {
        request: {
          uri: 'https://api.anthropic.com/v1/messages',
          body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'go' }] },
        },
        response: { status: 200, body: cut },
      },
    ])
    const { conv, warnings } = load(capture)
    const call = conv.messages[1]?.parts[2]
    expect(call).toMatchObject({ kind: 'tool_call', argsRaw: '{"city": ' })
    expect(call?.kind === 'tool_call' && call.argsError).toBeTruthy()
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/incomplete.*kept raw/)
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/message_stop/)
    roundTripAll(conv)
  })
})

describe('anthropic-messages bad input', () => {
  it('fails on broken JSON with line and offset', () => {
    const r = importer.parse(
      sniff('{\n  "messages": [\n    {"role": "user", "content": "hi"\n  ]\n}'),
    )
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.line).toBe(4)
      expect(r.error.offset).toBeGreaterThan(0)
      expect(r.error.message).toMatch(/expected an Anthropic Messages JSON body/)
    }
  })

  it('fails when `messages` is not an array, naming where', () => {
    const text = '{\n  "model": "x",\n  "messages": 5\n}'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatchObject({ line: 3, offset: text.indexOf('5') })
      expect(r.error.message).toMatch(/expected `messages` to be an array.*got a number/)
    }
  })

  it('skips bad messages and blocks with located warnings and keeps the rest', () => {
    const text = [
      '{"max_tokens": 5, "messages": [',
      '  {"role": "user", "content": "ok"},',
      '  42,',
      '  {"role": "robot", "content": "x"},',
      '  {"role": "assistant", "content": [{"type": "text", "text": "fine"}, "junk", {"no": "type"}]}',
      ']}',
    ].join('\n')
    const { conv, warnings } = load(text)
    expect(conv.messages).toHaveLength(2)
    expect(warnings.map((w) => [w.line, w.offset])).toEqual([
      [3, text.indexOf('42')],
      [4, text.indexOf('{"role": "robot"')],
      [5, text.indexOf('"junk"')],
      [5, text.indexOf('{"no"')],
    ])
    expect(warnings[0]?.message).toMatch(/messages\[1\]: expected a message object/)
    expect(warnings[1]?.message).toMatch(/expected `role` "user" or "assistant"/)
    roundTripAll(conv)
  })

  it('fails when nothing usable is left, and on JSON Lines', () => {
    const r = importer.parse(sniff('{"messages": [1, 2]}'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/at least one usable message/)
    const l = importer.parse(sniff('{"a":1}\n{"b":2}\n'))
    expect(l.ok).toBe(false)
    if (!l.ok) expect(l.error).toMatchObject({ line: 2, offset: 8 })
  })
})

const corpus = corpusFiles('anthropic-messages')
if (!corpus.present) console.log(corpus.skipMessage)

describe('anthropic-messages corpus', () => {
  it.skipIf(!corpus.present)('has files', () => expect(corpus.files.length).toBeGreaterThan(0))
  for (const file of corpus.files) {
    const name = file.name
    it(name, () => {
      const { conversation: conv, warnings } = importCorpusFile(importer, file)
      expect(conv.messages.length).toBeGreaterThan(0)
      roundTripAll(conv)
      const all = parts(conv)
      const calls = all.filter((p) => p.kind === 'tool_call').length
      const results = all.filter((p) => p.kind === 'tool_result').length
      console.log(
        `anthropic-messages/${name}: ${conv.messages.length} messages, ${calls} calls, ${results} results, ${conv.markers.length} markers, ${warnings.length} warnings`,
      )
      // Counts checked against the files (SOURCES.md): request = last body; exchange adds the response.
      const extra = name.endsWith('.exchanges.json') ? 1 : 0
      expect(conv.messages.length).toBe(3 + extra)
      if (name.includes('parallel')) expect([calls, results]).toEqual([4, 4])
      if (name.includes('tool_with_thinking')) expect([calls, results]).toEqual([1, 1])
      if (name.includes('compaction')) expect(conv.markers).toHaveLength(1)
      if (name.includes('redacted'))
        expect(all.some((p) => p.kind === 'reasoning' && p.redacted)).toBe(true)
      if (extra) expect(conv.messages.at(-1)?.usage?.contextTokens).toBeGreaterThan(0)
      expect(warnings).toEqual([])
    })
  }
})
