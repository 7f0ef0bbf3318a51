import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { importTranscript, serializeConversation } from './index.ts'
import { aiderFile, captureFile, claudeFile, tauBenchFile } from './items.testing.ts'

describe('multi-item files: tau-bench', () => {
  const text = tauBenchFile(7)
  it('lists every trajectory with its name, messages and tokens', () => {
    const out = importTranscript(text, { listItems: true })
    expect(out.items?.kind).toBe('tau-bench')
    expect(out.items?.items).toHaveLength(7)
    expect(out.items?.items[5]).toMatchObject({
      index: 5,
      name: 'task 5 · trial 0 · reward 1',
      messages: 7,
    })
    expect(out.items?.items[5]?.tokens).toBeGreaterThan(0)
    expect(out.items?.label).toBe('7 tau-bench trajectories')
  })
  it('parses item N on its own, and writes it back as a one-item file', () => {
    const out = importTranscript(text, { item: 5 })
    expect(out.item).toBe(5)
    if (!out.result.ok) throw new Error(out.result.error.message)
    const conv = out.result.conversation
    expect(conv.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ])
    expect(conv.meta.notes?.[0]).toMatch(/^item 5 of 7 \(tau-bench\): task 5/)
    const written = JSON.parse(serializeConversation(conv)) as { task_id: number }[]
    expect(written.map((r) => r.task_id)).toEqual([5])
  })
  it('an item out of range, or an item of a one-conversation file, fails with a clear message', () => {
    const out = importTranscript(text, { item: 7 })
    expect(out.result.ok).toBe(false)
    if (!out.result.ok)
      expect(out.result.error.message).toBe(
        'item 7 does not exist: the file holds 7 items (0 to 6)',
      )
    const one = importTranscript(JSON.stringify([{ role: 'user', content: 'hi' }]), { item: 0 })
    expect(one.result.ok).toBe(false)
    expect(importTranscript(text).items).toBeUndefined()
  })
})

describe('multi-item files: aider sessions', () => {
  it('every session with content is an item; the empty one is a warning, never a failure', () => {
    const out = importTranscript(aiderFile, { listItems: true })
    expect(out.result.ok).toBe(true)
    expect(out.items?.items.map((i) => [i.name, i.messages])).toEqual([
      ['session started 2024-08-01 10:00:00', 3],
      ['session started 2024-08-02 11:00:00', 4],
    ])
    expect(out.items?.warnings[0]?.message).toMatch(/started 2024-08-03 12:00:00\) is empty/)
    const first = importTranscript(aiderFile, { item: 0 })
    if (!first.result.ok) throw new Error(first.result.error.message)
    expect(first.result.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
    ])
    expect(first.result.warnings.some((w) => /is empty/.test(w.message))).toBe(true)
  })
})

describe('multi-item files: Claude Code sub-agent runs', () => {
  it('the main conversation first, then each sidechain run as its own item', () => {
    const out = importTranscript(claudeFile, { listItems: true })
    expect(out.items?.kind).toBe('claude-code-threads')
    expect(out.items?.items.map((i) => [i.name, i.messages])).toEqual([
      ['main conversation', 4],
      ['sub-agent sidechain: sub-agent: find the config', 2],
      ['sub-agent ab12: second sub-agent: run tests', 2],
    ])
    const sub = importTranscript(claudeFile, { item: 2 })
    if (!sub.result.ok) throw new Error(sub.result.error.message)
    const texts = sub.result.conversation.messages.map((m) =>
      m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
    )
    expect(texts).toEqual(['second sub-agent: run tests', 'tests pass'])
    // The whole file still loads as before (sidechains labelled, nothing dropped).
    const whole = importTranscript(claudeFile)
    expect(whole.result.ok && whole.result.conversation.messages).toHaveLength(8)
  })
})

describe('multi-item files: API captures with several conversations', () => {
  it('one item per conversation (its last request), the default still the last request', () => {
    const out = importTranscript(captureFile, { listItems: true })
    expect(out.items?.kind).toBe('capture-sessions')
    expect(out.items?.items.map((i) => i.messages)).toEqual([6, 3])
    expect(out.items?.items[0]?.name).toMatch(/^conversation 1 · 3 requests · gpt-4o/)
    const beta = importTranscript(captureFile, { item: 1 })
    if (!beta.result.ok) throw new Error(beta.result.error.message)
    expect(beta.detection?.format).toBe('openai-chat')
    const users = beta.result.conversation.messages.filter((m) => m.role === 'user')
    expect(users[0]?.parts[0]).toMatchObject({ text: 'beta' })
  })

  it('a conversation continued after a compaction item, or in another shape, stays one item', () => {
    const interaction = (body: unknown) => ({
      request: {
        method: 'POST',
        uri: 'https://api.openai.com/v1/responses',
        body: JSON.stringify(body),
      },
      response: { status: { code: 200 }, body: { string: '{}' } },
    })
    const capture = JSON.stringify({
      interactions: [
        interaction({ model: 'm', input: [{ role: 'user', content: 'What is 2+2?' }] }),
        interaction({
          model: 'm',
          input: [
            { role: 'user', content: [{ type: 'input_text', text: 'What is 2+2?' }] },
            { role: 'assistant', content: '4' },
          ],
        }),
        interaction({
          model: 'm',
          input: [
            { type: 'compaction', encrypted_content: 'gAAAA' },
            { role: 'user', content: 'And 3+3?' },
          ],
        }),
      ],
    })
    const out = importTranscript(capture, { listItems: true })
    expect(out.detection?.format).toBe('openai-responses')
    expect(out.result.ok && out.result.conversation.meta.wrapper).toBe('vcr')
    expect(out.items).toBeNull()
  })
})

describe('multi-item files: properties', () => {
  const session = (k: number, turns: number, empty: boolean) =>
    [
      `# aider chat started at 2024-08-${String(k + 1).padStart(2, '0')} 10:00:00`,
      '',
      ...(empty
        ? []
        : Array.from({ length: turns }, (_, t) => [
            `#### ask ${k}.${t}  `,
            '',
            `reply ${k}.${t}`,
            '',
          ]).flat()),
    ].join('\n')

  it('aider: every session with content is an item that opens with its own messages; empty ones never fail', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ turns: fc.integer({ min: 1, max: 4 }), empty: fc.boolean() }), {
          minLength: 1,
          maxLength: 8,
        }),
        (spec) => {
          const text = spec.map((s, k) => session(k, s.turns, s.empty)).join('\n')
          const full = spec.filter((s) => !s.empty)
          const out = importTranscript(text, { listItems: true })
          if (full.length === 0) return // nothing to load: a clear error, checked elsewhere
          expect(out.result.ok).toBe(true)
          if (full.length < 2) {
            expect(out.items).toBeNull()
            return
          }
          expect(out.items?.items.map((i) => i.messages)).toEqual(full.map((s) => s.turns * 2))
          expect(out.items?.warnings).toHaveLength(spec.length - full.length)
          full.forEach((s, i) => {
            const one = importTranscript(text, { item: i })
            expect(one.result.ok && one.result.conversation.messages.length).toBe(s.turns * 2)
          })
        },
      ),
      { numRuns: 60, seed: 12 },
    )
  })

  it('tau-bench: item N is trajectory N, for any number of trajectories', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.nat(), (n, pick) => {
        const text = tauBenchFile(n)
        const i = pick % n
        const out = importTranscript(text, { item: i, listItems: true })
        expect(out.items?.items).toHaveLength(n)
        expect(out.result.ok && out.result.conversation.messages.length).toBe(2 + i)
        expect(out.items?.items[i]?.messages).toBe(2 + i)
      }),
      { numRuns: 40, seed: 12 },
    )
  })
})
