import { describe, expect, it } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'

function load(text: string) {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${JSON.stringify(r.error)}`)
  return { conv: r.conversation, warnings: r.warnings }
}

function allParts(conv: Conversation): Part[] {
  return conv.messages.flatMap((m) => m.parts)
}

const SESSION = {
  sessionId: 'sess-1',
  projectHash: 'abc123',
  startTime: '2025-12-01T10:00:00.000Z',
  lastUpdated: '2025-12-01T10:05:00.000Z',
  messages: [
    { id: 'u1', timestamp: '2025-12-01T10:00:00.000Z', type: 'user', content: 'List and read.' },
    { id: 'i1', timestamp: '2025-12-01T10:00:01.000Z', type: 'info', content: 'Switched model.' },
    {
      id: 'g1',
      timestamp: '2025-12-01T10:00:05.000Z',
      type: 'gemini',
      content: 'Doing both.',
      toolCalls: [
        {
          id: 'ls-1',
          name: 'list_directory',
          args: { dir_path: '/p' },
          result: [
            {
              functionResponse: {
                id: 'ls-1',
                name: 'list_directory',
                response: { output: 'a.txt\nb.txt' },
              },
            },
          ],
          status: 'success',
          timestamp: '2025-12-01T10:00:05.000Z',
          displayName: 'ReadFolder',
          resultDisplay: 'Listed 2 item(s).',
        },
        {
          id: 'rf-1',
          name: 'read_file',
          args: { file_path: '/p/missing' },
          result: [
            {
              functionResponse: {
                id: 'rf-1',
                name: 'read_file',
                response: { error: 'File not found' },
              },
            },
          ],
          status: 'error',
          timestamp: '2025-12-01T10:00:06.000Z',
        },
      ],
      thoughts: [
        {
          subject: 'Planning',
          description: 'List, then read.',
          timestamp: '2025-12-01T10:00:04.000Z',
        },
      ],
      model: 'gemini-2.5-pro',
      tokens: { input: 2800, output: 40, cached: 1200, thoughts: 30, tool: 0, total: 2870 },
    },
    {
      id: 'e1',
      timestamp: '2025-12-01T10:00:07.000Z',
      type: 'error',
      content: 'Rate limited, retrying.',
    },
    {
      id: 'g2',
      timestamp: '2025-12-01T10:00:09.000Z',
      type: 'gemini',
      content: '',
      toolCalls: [
        {
          name: 'shell',
          args: { command: 'ls' },
          result: [{ functionResponse: { name: 'shell', response: { output: 'x' } } }],
          status: 'success',
        },
        { id: 'sh-2', name: 'shell', args: { command: 'sleep 99' }, status: 'executing' },
      ],
      thoughts: [],
      model: 'gemini-2.5-pro',
      tokens: { input: 3100, output: 12, cached: 2800, thoughts: 0, tool: 0, total: 3112 },
    },
    {
      id: 'u2',
      timestamp: '2025-12-01T10:01:00.000Z',
      type: 'user',
      content: [
        { text: 'Look at this' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    {
      id: 'g3',
      timestamp: '2025-12-01T10:01:05.000Z',
      type: 'gemini',
      content: 'A tiny PNG.',
      model: 'gemini-2.5-pro',
    },
  ],
}

describe('gemini-cli detection', () => {
  it('recognises a recording by sessionId + projectHash + gemini records', () => {
    const d = importer.detect(sniff(JSON.stringify(SESSION)))
    expect(d).toMatchObject({ format: 'gemini-cli' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence.join(' ')).toMatch(/sessionId \+ projectHash/)
    expect(d?.evidence.join(' ')).toMatch(/gemini ×3/)
  })

  it('does not claim Gemini API bodies or other session files', () => {
    expect(
      importer.detect(
        sniff(JSON.stringify({ contents: [{ role: 'model', parts: [{ text: 'x' }] }] })),
      ),
    ).toBeNull()
    expect(
      importer.detect(
        sniff(JSON.stringify({ sessionId: 's', messages: [{ role: 'user', content: 'x' }] })),
      ),
    ).toBeNull()
    expect(
      importer.detect(sniff(JSON.stringify({ messages: [{ type: 'user', content: 'x' }] }))),
    ).toBeNull()
  })
})

describe('gemini-cli parsing', () => {
  it('splits records into messages, tool results into tool messages, keeps info/error aside', () => {
    const { conv, warnings } = load(JSON.stringify(SESSION))
    expect(warnings).toEqual([])
    expect(conv.messages.map((m) => `${m.id}:${m.role}`)).toEqual([
      'u1:user',
      'g1:assistant',
      'g1/ls-1:tool',
      'g1/rf-1:tool',
      'g2:assistant',
      'g2/0:tool',
      'u2:user',
      'g3:assistant',
    ])
    expect(conv.meta).toMatchObject({
      format: 'gemini-cli',
      sessionId: 'sess-1',
      model: 'gemini-2.5-pro',
    })
    expect(conv.meta.notes?.[0]).toMatch(/1 info, 1 error record\(s\) kept aside/)

    const g1 = conv.messages[1]
    expect(g1?.parts.map((p) => p.kind)).toEqual(['reasoning', 'text', 'tool_call', 'tool_call'])
    expect(g1?.parts[0]).toMatchObject({
      kind: 'reasoning',
      text: 'List, then read.',
      meta: { subject: 'Planning' },
    })
    expect(g1?.parts[2]).toMatchObject({
      kind: 'tool_call',
      callId: 'ls-1',
      name: 'list_directory',
      args: { dir_path: '/p' },
    })
    expect(g1?.usage).toMatchObject({
      contextTokens: 2800,
      outputTokens: 40,
      cacheReadTokens: 1200,
      reasoningTokens: 30,
    })
    expect(g1?.model).toBe('gemini-2.5-pro')
    expect(conv.messages[2]?.parts[0]).toMatchObject({
      kind: 'tool_result',
      callId: 'ls-1',
      name: 'list_directory',
      isError: false,
      content: [{ kind: 'text', text: 'a.txt\nb.txt' }],
    })
    expect(conv.messages[3]?.parts[0]).toMatchObject({
      callId: 'rf-1',
      isError: true,
      content: [{ text: 'File not found' }],
    })

    // No id → null; no result yet → no tool message (the engine flags it pending).
    const g2 = conv.messages[4]
    expect(g2?.parts.map((p) => p.kind)).toEqual(['tool_call', 'tool_call'])
    expect(g2?.parts[0]).toMatchObject({ callId: null })
    expect(conv.messages[5]?.parts[0]).toMatchObject({ kind: 'tool_result', callId: null })
    expect(conv.messages[6]?.parts.map((p) => p.kind)).toEqual(['text', 'image'])
  })

  it('round-trips to the same recording, results folded back into toolCalls', () => {
    const { conv } = load(JSON.stringify(SESSION))
    roundTrip(importer, conv)
    expect(JSON.parse(importer.serialize(conv))).toEqual(SESSION)
  })

  it('serializes a conversation with removed messages without inventing records', () => {
    const { conv } = load(JSON.stringify(SESSION))
    const trimmed: Conversation = {
      ...conv,
      messages: conv.messages.filter((m) => m.id !== 'g1/rf-1' && m.id !== 'u1'),
    }
    const out = JSON.parse(importer.serialize(trimmed)) as typeof SESSION
    const g1 = out.messages.find((r) => r.id === 'g1') as (typeof SESSION.messages)[2]
    expect(g1.toolCalls?.[0]?.result).toBeDefined()
    expect(g1.toolCalls?.[1]?.result).toBeUndefined()
    expect(out.messages.map((r) => r.id)).toEqual(['i1', 'g1', 'e1', 'g2', 'u2', 'g3'])
    roundTrip(importer, trimmed)
  })
})

describe('gemini-cli bad input', () => {
  it('fails on broken JSON with line and offset', () => {
    const r = importer.parse(sniff('{\n "sessionId": "s"\n "messages": []\n}'))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.line).toBe(3)
      expect(r.error.message).toMatch(/expected a Gemini CLI session JSON object/)
    }
  })

  it('fails when messages is not an array, naming where', () => {
    const text = '{\n  "sessionId": "s",\n  "projectHash": "p",\n  "messages": "none"\n}'
    const r = importer.parse(sniff(text))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatchObject({ line: 4, offset: text.indexOf('"none"') })
  })

  it('keeps bad records aside with located warnings and loads the rest', () => {
    const text = [
      '{"sessionId": "s", "projectHash": "p", "messages": [',
      '  {"id": "u", "type": "user", "content": "hi"},',
      '  12,',
      '  {"id": "g", "type": "gemini", "content": "yo", "toolCalls": [null, {"id": "c", "name": "f", "args": {}, "result": [], "status": "success"}]}',
      ']}',
    ].join('\n')
    const { conv, warnings } = load(text)
    expect(conv.messages.map((m) => m.id)).toEqual(['u', 'g', 'g/c'])
    expect(warnings.map((w) => [w.line, w.offset])).toEqual([
      [3, text.indexOf('12')],
      [4, text.indexOf('null')],
    ])
    expect(warnings[0]?.message).toMatch(/messages\[1\]: expected a record object/)
    roundTrip(importer, conv)
  })

  it('fails when there is no user or gemini record', () => {
    const r = importer.parse(
      sniff(
        '{"sessionId": "s", "projectHash": "p", "messages": [{"type": "info", "content": "x"}]}',
      ),
    )
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/at least one record of type "user" or "gemini"/)
  })
})

const corpus = corpusFiles('gemini-cli')
if (!corpus.present) console.log(corpus.skipMessage)

describe('gemini-cli corpus', () => {
  it.skipIf(!corpus.present)('has files', () => expect(corpus.files.length).toBeGreaterThan(0))
  for (const file of corpus.files) {
    const name = file.name
    it(name, () => {
      const text = file.text
      const { conversation: conv, warnings } = importCorpusFile(importer, file)
      expect(conv.messages.length).toBeGreaterThan(0)
      roundTrip(importer, conv)
      const parts = allParts(conv)
      const calls = parts.filter((p) => p.kind === 'tool_call').length
      const results = parts.filter((p) => p.kind === 'tool_result').length
      console.log(
        `gemini-cli/${name}: ${conv.messages.length} messages, ${calls} calls, ${results} results, ${warnings.length} warnings`,
      )
      // Against the file itself: every user/gemini record is a message, every call has its result.
      const raw = JSON.parse(text) as {
        messages: { type: string; toolCalls?: { result?: unknown }[] }[]
      }
      const records = raw.messages.filter((m) => m.type === 'user' || m.type === 'gemini').length
      const rawCalls = raw.messages.flatMap((m) => m.toolCalls ?? [])
      expect(calls).toBe(rawCalls.length)
      expect(results).toBe(rawCalls.filter((c) => c.result !== undefined).length)
      expect(conv.messages.filter((m) => m.role !== 'tool')).toHaveLength(records)
      expect(JSON.parse(importer.serialize(conv))).toEqual(raw)
      expect(warnings).toEqual([])
    })
  }
})

describe('gemini-cli: a reused call id (fuzz finding, issue 10)', () => {
  it('keeps both results when two records reuse one call id', () => {
    const call = (result: string) => ({
      id: 'read-1',
      name: 'read_file',
      args: { path: 'a' },
      result: [
        { functionResponse: { id: 'read-1', name: 'read_file', response: { output: result } } },
      ],
      status: 'success',
    })
    const recording = {
      sessionId: 's',
      projectHash: 'h',
      startTime: 't',
      lastUpdated: 't',
      messages: [
        { id: 'u1', timestamp: 't', type: 'user', content: 'read it twice' },
        { id: 'g1', timestamp: 't', type: 'gemini', content: '', toolCalls: [call('first')] },
        { id: 'g2', timestamp: 't', type: 'gemini', content: '', toolCalls: [call('second')] },
      ],
    }
    const c = importer.parse(sniff(JSON.stringify(recording)))
    expect(c.ok).toBe(true)
    if (!c.ok) return
    const results = (conv: typeof c.conversation) =>
      conv.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result').length
    expect(results(c.conversation)).toBe(2)
    const again = importer.parse(sniff(importer.serialize(c.conversation)))
    expect(again.ok && results(again.conversation)).toBe(2)
  })
})
