import { describe, expect, it } from 'vitest'
import type { Conversation } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { corpusFiles, importCorpusFile, roundTrip } from '../testing-corpus.mts'

function load(text: string): Conversation {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(r.error.message)
  return r.conversation
}

const textOf = (m: Conversation['messages'][number] | undefined) =>
  m?.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')

const history = [
  '# aider chat started at 2024-08-01 10:00:00',
  '',
  '> aider --model gpt-4o  ',
  '> Main model: gpt-4o with diff edit format  ',
  '',
  '#### first session  ',
  '',
  'ok',
  '',
  '# aider chat started at 2024-08-02 11:00:00',
  '',
  '> /usr/bin/aider  ',
  '> Main model: claude-3-5-sonnet-20240620 with diff edit format  ',
  '',
  '#### fix the bug  ',
  '####   ',
  '#### in utils.py  ',
  '',
  'Here is the change:',
  '',
  'utils.py',
  '```python',
  '<<<<<<< SEARCH',
  'a = 1',
  '=======',
  'a = 2',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 7.3k sent, 1,024 received.',
  'Cost: $0.04 message, $0.12 session.  ',
  '> Applied edit to utils.py  ',
  '>  ',
  '> Commit abc123 fix: the bug  ',
  '',
  '#### /run pytest  ',
  '> ===== test session starts =====',
  'platform darwin',
  'collected 3 items  ',
  '',
  'All green.',
  '',
].join('\n')

describe('aider detection', () => {
  it('is certain with a session header', () => {
    const d = importer.detect(sniff(history))
    expect(d).toMatchObject({ format: 'aider' })
    expect(d?.confidence).toBeGreaterThanOrEqual(0.9)
    expect(d?.evidence[0]).toMatch(/2 line/)
  })
  it('only guesses on header-less fragments and ignores other Markdown / JSON', () => {
    const fragment = '#### hi  \n\nhello\n\n#### more  \n> Applied edit to a.py  \n'
    expect(importer.detect(sniff(fragment))?.confidence).toBeLessThan(0.6)
    expect(importer.detect(sniff('# Title\n\nSome > text\n#### heading\n'))).toBeNull()
    expect(
      importer.detect(sniff('[{"role":"user","content":"# aider chat started at"}]')),
    ).toBeNull()
  })
})

describe('aider parsing', () => {
  const conv = load(history)
  it('reads the last session and lists the others', () => {
    expect(conv.meta.model).toBe('claude-3-5-sonnet-20240620')
    expect(conv.meta.title).toBe('aider chat started at 2024-08-02 11:00:00')
    expect(conv.meta.notes).toEqual([
      '2 session(s) in the file; showing the last one (line 10, started 2024-08-02 11:00:00)',
      'session 1: line 1, started 2024-08-01 10:00:00, 1 user message(s)',
    ])
  })
  it('splits input, output and replies with line numbers', () => {
    expect(conv.messages.map((m) => [m.role, m.injected ?? false, m.line])).toEqual([
      ['user', true, 12],
      ['user', false, 15],
      ['assistant', false, 19],
      ['user', true, 30],
      ['user', false, 36],
      ['user', true, 37],
      ['assistant', false, 41],
    ])
    expect(textOf(conv.messages[1])).toBe('fix the bug\n\nin utils.py')
    expect(textOf(conv.messages[2])).toMatch(
      /^Here is the change:\n\nutils.py[\s\S]*>>>>>>> REPLACE\n```$/,
    )
  })
  it('folds lazy continuation lines into the tool output', () => {
    expect(textOf(conv.messages[3])).toBe(
      'Tokens: 7.3k sent, 1,024 received.\nCost: $0.04 message, $0.12 session.\nApplied edit to utils.py\n\nCommit abc123 fix: the bug',
    )
    expect(textOf(conv.messages[5])).toBe(
      '===== test session starts =====\nplatform darwin\ncollected 3 items',
    )
  })
  it('puts the Tokens line on the reply it belongs to', () => {
    expect(conv.messages[2]?.usage).toMatchObject({ inputTokens: 7300, outputTokens: 1024 })
  })
  it('round-trips through the Markdown serializer', () => {
    roundTrip(importer, conv)
    const md = importer.serialize(conv)
    expect(md).toContain('#### fix the bug  \n####  \n#### in utils.py  \n')
    expect(md).toContain('> Applied edit to utils.py  \n>  \n')
  })
})

describe('aider: sessions that are not loaded (issue 10)', () => {
  const startup = [
    '# aider chat started at 2024-08-03 09:00:00',
    '',
    '> /usr/bin/aider  ',
    '> Aider v0.50.1  ',
    '> Main model: claude-3-5-sonnet-20240620 with diff edit format  ',
    '> Git repo: .git with 12 files  ',
    '',
  ].join('\n')

  it('skips a newest session that holds only the start-up output aider writes at launch', () => {
    const r = importer.parse(sniff(history + startup))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.conversation.meta.title).toBe('aider chat started at 2024-08-02 11:00:00')
    expect(r.conversation.messages.map((m) => m.line)).toEqual([12, 15, 19, 30, 36, 37, 41])
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatchObject({
      line: 10,
      offset: history.indexOf('# aider chat started at 2024-08-02'),
    })
    expect(r.warnings[0]?.message).toMatch(
      /3 aider sessions; loaded one \(line 10, started 2024-08-02 11:00:00\)/,
    )
    const startupLine = history.split('\n').length
    expect(r.warnings[0]?.message).toContain(
      `at line ${startupLine}, started 2024-08-03 09:00:00 hold only aider's start-up output`,
    )
    expect(r.warnings[0]?.message).toMatch(/the other 2 are not loaded/)
  })

  it('skips a header-only newest session, with or without a final newline', () => {
    for (const tail of [
      '# aider chat started at 2024-08-03 09:00:00\n',
      '# aider chat started at 2024-08-03 09:00:00',
    ]) {
      const r = importer.parse(sniff(history + tail))
      expect(r.ok, tail).toBe(true)
      if (r.ok) expect(r.conversation.messages).toHaveLength(7)
    }
  })

  it('says in the warnings, not only in the notes, that other sessions were not loaded', () => {
    const r = importer.parse(sniff(history))
    expect(r.ok && r.warnings.map((w) => w.message)).toEqual([
      'the file holds 2 aider sessions; loaded one (line 10, started 2024-08-02 11:00:00), the newest with a conversation; the other 1 are not loaded here: open one from the item list (CLI: --item N)',
    ])
    const single = importer.parse(
      sniff(history.slice(history.indexOf('# aider chat started at 2024-08-02'))),
    )
    expect(single.ok && single.warnings).toEqual([])
  })

  it('positions the warning in the original text of a CRLF file', () => {
    const crlf = (history + startup).replace(/\n/g, '\r\n')
    const r = importer.parse(sniff(crlf))
    expect(r.ok && r.warnings[0]?.offset).toBe(crlf.indexOf('# aider chat started at 2024-08-02'))
  })

  it('fails only when no session holds anything', () => {
    const r = importer.parse(sniff('# aider chat started at 1\n\n# aider chat started at 2\n'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/none of the 2 sessions holds messages/)
  })
})

describe('aider bad input', () => {
  it('fails clearly on JSON and on an empty session', () => {
    const json = importer.parse(sniff('{"a": 1}'))
    expect(json.ok).toBe(false)
    if (!json.ok) expect(json.error.message).toMatch(/expected aider Markdown/)
    const empty = importer.parse(sniff('# aider chat started at 2024-01-01\n\n\n'))
    expect(empty.ok).toBe(false)
    if (!empty.ok)
      expect(empty.error).toMatchObject({
        line: 1,
        message: expect.stringMatching(/holds no messages/),
      })
  })
  it('stays linear on a large file', () => {
    const big = '# aider chat started at x\n\n#### q  \n\na\n\n> done  \n\n'.repeat(20000)
    const t0 = performance.now()
    const conv = load(big)
    expect(performance.now() - t0).toBeLessThan(2000)
    expect(conv.messages).toHaveLength(3)
    expect(conv.meta.notes).toHaveLength(20000)
  })
})

const corpus = corpusFiles('aider')
if (!corpus.present) console.log(corpus.skipMessage)

describe('aider corpus', () => {
  it.skipIf(!corpus.present)('loads every corpus file', () => {
    expect(corpus.files.length).toBeGreaterThan(0)
    for (const f of corpus.files) {
      const { name: file, text } = f
      const { conversation: conv, warnings } = importCorpusFile(importer, f, { fileName: file })
      const users = conv.messages.filter((m) => m.role === 'user' && !m.injected).length
      const injected = conv.messages.filter((m) => m.injected).length
      console.log(
        `aider ${file}: ${conv.messages.length} messages (${users} user, ${injected} aider output), 0 tool calls, 0 tool results, ${warnings.length} warnings; ${conv.meta.notes?.[0]}`,
      )
      // Headers in the file = sessions listed (plus the text before the first header).
      const headers = text.match(/^# aider chat started at/gm)?.length ?? 0
      expect(headers).toBe(1133)
      expect((conv.meta.notes?.length ?? 0) - 1).toBeGreaterThanOrEqual(headers)
      const lastHeader = text.lastIndexOf('\n# aider chat started at')
      const tail = text.slice(lastHeader)
      expect(users).toBe(tail.match(/^#### /gm)?.length)
      const first = conv.messages[0]
      expect(first?.line).toBe(text.slice(0, lastHeader + 1).split('\n').length + 2)
      roundTrip(importer, conv)
    }
  })
})
