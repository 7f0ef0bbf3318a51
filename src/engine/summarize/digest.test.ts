import { describe, expect, it } from 'vitest'
import type { Message, Part } from '../model.ts'
import { buildDigest, createDigestSummarizer, DIGEST_HEADER } from './digest.ts'
import type { SummaryRequest } from './types.ts'

const text = (t: string): Part => ({ kind: 'text', text: t })
const call = (callId: string | null, name: string, args: unknown = {}): Part => ({
  kind: 'tool_call',
  callId,
  name,
  argsRaw: typeof args === 'string' ? args : JSON.stringify(args),
  ...(typeof args === 'string' ? {} : { args }),
})
const result = (callId: string | null, out: string, isError = false): Part => ({
  kind: 'tool_result',
  callId,
  content: [{ kind: 'text', text: out }],
  isError,
})

let seq = 0
function msg(role: Message['role'], parts: Part[], extra: Partial<Message> = {}): Message {
  seq++
  return { id: `m${seq}`, role, parts, ...extra }
}

function sample(): Message[] {
  return [
    msg('user', [text('Fix the failing   test in\nparser.ts')]),
    msg('user', [text('<system-reminder>ignore me</system-reminder>')], { injected: true }),
    msg('assistant', [
      text('Looking at it.'),
      call('c1', 'Read', { file_path: 'src/parser.ts' }),
      call('c2', 'Bash', { command: 'npm test -- parser' }),
    ]),
    msg('user', [
      result('c1', 'export function parse() {}'),
      result('c2', '\nError: expected 2\nat x', true),
    ]),
    msg('assistant', [
      call('c3', 'Edit', { file_path: 'src/parser.ts', old_string: 'a', new_string: 'b' }),
      call('c4', 'Grep', { pattern: 'parse', path: 'src' }),
      call('c5', 'shell', { command: ['bash', '-lc', 'git status'] }),
      call('c6', 'str_replace_editor', { command: 'view', path: 'README.md' }),
    ]),
    msg('tool', [result('c3', 'ok'), result('c4', 'src/parser.ts:1'), result('c5', 'clean')]),
    msg('tool', [result('c6', 'permission denied', true)]),
    msg('assistant', [text('The test passes now; parser.ts returns 2.')]),
  ]
}

const request = (messages: readonly Message[], extra: Partial<SummaryRequest> = {}) => ({
  messages,
  instructions: 'ignored by the digest',
  ...extra,
})

function section(digest: string, title: string): string[] {
  const lines = digest.split('\n')
  const start = lines.findIndex((l) => l.startsWith(title))
  expect(start, `section ${title}`).toBeGreaterThanOrEqual(0)
  const out: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (line === '') break
    out.push(line)
  }
  return out
}

describe('offline digest', () => {
  it('is labelled as not an LLM', async () => {
    const s = createDigestSummarizer()
    expect(s.id).toBe('digest')
    expect(s.label).toBe('Offline digest (extractive, not an LLM)')
    expect(s.isLlm).toBe(false)
    const r = await s.summarize(request(sample()))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.text.split('\n')[0]).toBe(DIGEST_HEADER)
    expect(r.text.split('\n')[0]).toMatch(/extractive, not a model summary/)
    expect(r).not.toHaveProperty('model')
  })

  it('is deterministic and does not mutate its input', async () => {
    const messages = sample()
    const frozen = JSON.stringify(messages)
    const a = await createDigestSummarizer().summarize(request(messages))
    const b = await createDigestSummarizer().summarize(request(structuredClone(messages)))
    expect(a).toEqual(b)
    expect(JSON.stringify(messages)).toBe(frozen)
  })

  it('extracts requests, tools, files, commands, errors and the latest state', () => {
    const d = buildDigest(request(sample()))
    expect(section(d, 'User requests')).toEqual(['1. Fix the failing test in parser.ts'])
    expect(d).not.toContain('ignore me')
    expect(section(d, 'Tools used')).toEqual([
      '- Bash × 1',
      '- Edit × 1',
      '- Grep × 1',
      '- Read × 1',
      '- shell × 1',
      '- str_replace_editor × 1',
    ])
    expect(section(d, 'Files touched')).toEqual(['- src/parser.ts', '- src', '- README.md'])
    // str_replace_editor's `command` is a verb, not a shell command.
    expect(section(d, 'Commands run')).toEqual(['- npm test -- parser', '- git status'])
    expect(section(d, 'Errors')).toEqual([
      '- Bash: Error: expected 2',
      '- str_replace_editor: permission denied',
    ])
    expect(section(d, 'Latest state')).toEqual(['The test passes now; parser.ts returns 2.'])
    expect(d).toContain('Covers 8 messages: 1 user request(s), 6 tool call(s), 6 tool result(s)')
  })

  it('names an errored result by the latest call with its id before it, in the same message too', () => {
    const d = buildDigest(
      request([
        msg('assistant', [call('x', 'Read'), call('y', 'Grep')]),
        msg('tool', [result('x', 'first failed', true), result('z', 'no call', true)]),
        msg('assistant', [call('x', 'Bash', { command: 'ls' })]),
        msg('tool', [result('x', 'second failed', true)]),
        msg('assistant', [result('y', 'own message failed', true), call('y', 'Edit')]),
        msg('tool', [result('y', 'after the edit', true)]),
      ]),
    )
    expect(section(d, 'Errors')).toEqual([
      '- Read: first failed',
      '- no call',
      '- Bash: second failed',
      '- Grep: own message failed',
      '- Edit: after the edit',
    ])
  })

  it('sorts tools by count, then name', () => {
    const d = buildDigest(
      request([
        msg('assistant', [
          call('a', 'Zed'),
          call('b', 'Read'),
          call('c', 'Read'),
          call('d', 'Alp'),
        ]),
        msg('assistant', [call('e', 'Zed'), call('f', 'Bash', { command: 'ls' })]),
      ]),
    )
    expect(section(d, 'Tools used')).toEqual(['- Read × 2', '- Zed × 2', '- Alp × 1', '- Bash × 1'])
  })

  it('finds files in apply_patch text and path lists', () => {
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n*** Add File: b.ts\n*** End Patch'
    const d = buildDigest(
      request([
        msg('assistant', [
          call('p', 'apply_patch', patch),
          call('q', 'apply_patch', { input: '*** Begin Patch\n*** Delete File: c.ts\n' }),
          call('r', 'read_many_files', { paths: ['d.ts', 'a.ts'] }),
          call('s', 'NotebookEdit', { notebook_path: 'n.ipynb' }),
        ]),
      ]),
    )
    expect(section(d, 'Files touched')).toEqual([
      '- a.ts',
      '- b.ts',
      '- c.ts',
      '- d.ts',
      '- n.ipynb',
    ])
  })

  it('caps every list and says how much was left out', () => {
    const messages: Message[] = []
    for (let i = 1; i <= 25; i++) {
      messages.push(msg('user', [text(`request ${i} ${'x'.repeat(300)}`)]))
      messages.push(
        msg('assistant', [
          call(`r${i}`, 'Read', { file_path: `f${i}.ts` }),
          call(`w${i}`, 'Write', { file_path: `g${i}.ts` }),
          call(`b${i}`, 'Bash', { command: `cmd ${i}` }),
        ]),
      )
      messages.push(
        msg('tool', [
          result(`r${i}`, 'ok'),
          result(`w${i}`, 'ok'),
          result(`b${i}`, `err ${i}`, true),
        ]),
      )
    }
    messages.push(msg('assistant', [text('y'.repeat(1000))]))
    const d = buildDigest(request(messages))
    const requests = section(d, 'User requests')
    expect(requests[0]).toBe('(15 earlier request(s) not shown)')
    expect(requests).toHaveLength(11)
    expect(requests[1]).toMatch(/^16\. request 16 x+…$/)
    expect(requests[10]).toMatch(/^25\. /)
    for (const line of requests.slice(1)) expect(line.length).toBeLessThanOrEqual(205)
    const files = section(d, 'Files touched')
    expect(files).toHaveLength(31)
    expect(files[0]).toBe('- f1.ts')
    expect(files[1]).toBe('- g1.ts')
    expect(files[30]).toBe('(20 more file(s))')
    const commands = section(d, 'Commands run')
    expect(commands[0]).toBe('(15 earlier command(s) not shown)')
    expect(commands.slice(1)).toEqual(Array.from({ length: 10 }, (_, i) => `- cmd ${i + 16}`))
    const errors = section(d, 'Errors')
    expect(errors[0]).toBe('(15 earlier error(s) not shown)')
    expect(errors.at(-1)).toBe('- Bash: err 25')
    const latest = section(d, 'Latest state')[0] ?? ''
    expect(latest.length).toBe(400)
    expect(latest.endsWith('…')).toBe(true)
    expect(d.length).toBeLessThanOrEqual(6_000)
  })

  it('stays within the size bound however large the input', () => {
    const messages: Message[] = []
    for (let i = 0; i < 200; i++) {
      messages.push(msg('user', [text(`u${i} `.repeat(500))]))
      messages.push(
        msg('assistant', [
          call(`c${i}`, `tool_${i}_${'n'.repeat(150)}`, { file_path: `/${'d'.repeat(180)}/${i}` }),
        ]),
      )
      messages.push(msg('tool', [result(`c${i}`, 'e'.repeat(500), true)]))
    }
    const big = request(messages, { previousSummary: 'p'.repeat(10_000) })
    for (const maxChars of [6_000, 2_000, 300, 10]) {
      const d = buildDigest(big, { maxChars })
      expect(d.length).toBeLessThanOrEqual(maxChars)
    }
    expect(buildDigest(big).length).toBeLessThanOrEqual(6_000)
    expect(buildDigest(big).startsWith(DIGEST_HEADER)).toBe(true)
    // maxOutputTokens (× 4 chars) tightens the bound further.
    expect(buildDigest({ ...big, maxOutputTokens: 500 }).length).toBeLessThanOrEqual(2_000)
  })

  it('carries the previous summary and earlier inserted summaries forward', () => {
    const d = buildDigest(
      request(
        [
          msg('user', [text('Older summary of turns 1-3.')], {
            injected: true,
            summaryOf: { strategy: 'summarize', groups: ['g1'] },
          }),
          msg('user', [text('next step')]),
        ],
        { previousSummary: 'The user wants a parser.' },
      ),
    )
    expect(section(d, 'Previous summary (carried forward)')).toEqual(['The user wants a parser.'])
    expect(d).toContain('Older summary of turns 1-3.')
    expect(section(d, 'User requests')).toEqual(['1. next step'])
    expect(d.indexOf('Previous summary')).toBeLessThan(d.indexOf('User requests'))
  })

  it('handles an empty request', async () => {
    const r = await createDigestSummarizer().summarize(request([]))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(section(r.text, 'User requests')).toEqual(['(none)'])
    expect(section(r.text, 'Latest state')).toEqual(['(none)'])
    expect(r.text).not.toContain('Previous summary')
  })
})
