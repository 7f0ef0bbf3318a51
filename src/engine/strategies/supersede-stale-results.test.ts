import { describe, expect, it } from 'vitest'
import { categorizeFaithful } from './supersede-stale-results/categories.ts'
import { extractFaithful } from './supersede-stale-results/identity.ts'
import { lipKey } from './supersede-stale-results/notes.ts'
import { codePointLength, utf8Bytes } from './supersede-stale-results/stub.ts'
import {
  conversation,
  exchange,
  lipStub,
  rid,
  run,
  summary,
  user,
} from './supersede-stale-results/fixtures.ts'
import { detailOf } from '../compaction/sentence.ts'

const out = (n: number, ch = 'x') => ch.repeat(n)

describe('supersede-stale-results: seed examples (LIP user guide)', () => {
  it('stub text for /path/to/file.py (2500 bytes), exactly', async () => {
    const a = exchange('read_file', { path: '/path/to/file.py' }, out(2500))
    const b = exchange('read_file', { path: '/path/to/file.py' }, out(2600))
    const r = await run(conversation([user('read it twice'), a, b]))
    expect(r.resultText(rid(a))).toBe(
      '[COMPACTED] Previous output for /path/to/file.py (2500 bytes) was removed because a newer result for this resource exists later in the conversation.',
    )
    expect(r.resultText(rid(b))).toBe(out(2600))
  })

  it('stale_resources keys are LIP str(identity): view_file:/a.py, grep_search:pattern', () => {
    const id = (tool: string, args: object) =>
      extractFaithful(tool, categorizeFaithful(tool), JSON.stringify(args))
    expect(lipKey('view_file', id('view_file', { AbsolutePath: '/a.py' })!, (s) => s)).toBe(
      'view_file:/a.py',
    )
    expect(lipKey('grep_search', id('grep_search', { Query: 'pattern' })!, (s) => s)).toBe(
      'grep_search:pattern',
    )
    expect(lipKey('read_file', id('read_file', { path: 'config.json' })!, (s) => s)).toBe(
      'read_file:config.json',
    )
  })
})

describe('supersede-stale-results: decisions and parameters', () => {
  it('the stub keeps callId, name and isError and points `newer` at the newest result', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200), { isError: true })
    const b = exchange('read_file', { path: '/a' }, out(1300))
    const c = exchange('read_file', { path: '/a' }, out(1400))
    const r = await run(conversation([user('go'), a, b, c]), { maxStubsPerResource: null })
    const stub = r.resultPart(rid(a))
    const original = r.view.prepared.conversation.messages[2]?.parts[0]
    expect(original?.kind === 'tool_result' && stub.callId === original.callId).toBe(true)
    expect(stub.name).toBe('read_file')
    expect(stub.isError).toBe(true)
    expect(stub.content).toHaveLength(1)
    const stubs = r.decisions.filter((d) => d.kind === 'stub')
    expect(stubs.map((d) => d.newer)).toEqual([
      { message: 6, part: 0 },
      { message: 6, part: 0 },
    ])
    expect(detailOf(stubs[0])).toBe(
      `Stubbed \`read_file\` output for /a (1200 bytes, 300 tokens by len//4): a newer result for this resource is in message ${rid(c)} — LIP decision \`applied\``,
    )
    expect(stubs[0]?.tokensBefore).toBe(300)
  })

  it('no_stale_results: every result is the newest for its resource', async () => {
    const r = await run(
      conversation([
        user('go'),
        exchange('read_file', { path: '/a' }, out(1200)),
        exchange('read_file', { path: '/b' }, out(1200)),
      ]),
    )
    expect(r.decisions).toHaveLength(1)
    expect(r.decisions[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent' })
    expect(detailOf(r.decisions[0])).toBe(
      'Nothing compacted: no stale results — each of the 2 identified tool results is the newest for its resource — LIP decision `no_stale_results`',
    )
  })

  it('min tokens: 249 tokens by len//4 are skipped, 250 are stubbed', async () => {
    const a = exchange('read_file', { path: '/a' }, out(999))
    const b = exchange('read_file', { path: '/a' }, out(5))
    const c = exchange('read_file', { path: '/b' }, out(1000))
    const d = exchange('read_file', { path: '/b' }, out(5))
    const r = await run(conversation([user('go'), a, b, c, d]))
    expect(summary(r)).toEqual([
      `skip:skipped_below_min_tokens:${rid(a)}`,
      `stub:superseded:${rid(c)}`,
    ])
    expect(detailOf(r.decisions[0])).toBe(
      `Kept \`read_file\` output for /a: 249 tokens by len//4 is below minToolOutputTokens 250, though a newer result is in message ${rid(b)} — LIP decision \`skipped_below_min_tokens\``,
    )
    const low = await run(conversation([user('go'), a, b]), { minToolOutputTokens: 100 })
    expect(summary(low)).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('min tokens use code points like Python len() (emoji count once, bytes are UTF-8)', async () => {
    const text = '😀'.repeat(1000) // 2000 UTF-16 units, 1000 code points, 4000 bytes
    expect(codePointLength(text)).toBe(1000)
    expect(utf8Bytes(text)).toBe(4000)
    const a = exchange('read_file', { path: '/e' }, text)
    const r = await run(conversation([user('go'), a, exchange('read_file', { path: '/e' }, 'x')]))
    expect(r.resultText(rid(a))).toBe(lipStub('/e', 4000))
  })

  it('preserveLastN=2 keeps the two newest per resource; faithful ignores it', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const b = exchange('read_file', { path: '/a' }, out(1300))
    const c = exchange('read_file', { path: '/a' }, out(1400))
    const conv = conversation([user('go'), a, b, c])
    const r = await run(conv, { preserveLastN: 2 })
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`, `skip:keep_recent:${rid(b)}`])
    expect(detailOf(r.decisions[1])).toBe(
      'Kept `read_file` output for /a: it is the 2nd newest result for this resource and preserveLastN is 2 (LIP keeps only the last)',
    )
    expect(r.decisions[1]?.fixed).toBe(
      `LIP would have stubbed it: it keys the call as \`read_file:/a\`, the same key as the newer result in message ${rid(c)}`,
    )
    const f = await run(conv, { preserveLastN: 2, faithful: true, tokenThreshold: 0 })
    expect(summary(f)).toEqual([`stub:superseded:${rid(a)}`, `stub:superseded:${rid(b)}`])
  })

  it('maxStubsPerResource=1 drops older stale results whole; null keeps every stub; faithful stubs all', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const b = exchange('read_file', { path: '/a' }, out(1300))
    const c = exchange('read_file', { path: '/a' }, out(1400))
    const conv = conversation([user('go'), a, b, c])
    const r = await run(conv)
    expect(summary(r)).toEqual([`exclude:superseded:g${a[0]!.id}`, `stub:superseded:${rid(b)}`])
    expect(r.decisions[0]?.fixed).toBe(
      'LIP would have stubbed it instead: its max_stubs_per_resource is declared but never used',
    )
    expect(r.view.isExcluded(2)).toBe(true)
    expect(detailOf(r.decisions[0])).toBe(
      `Dropped the call and \`read_file\` output for /a (1200 bytes, 300 tokens by len//4): a newer result for this resource is in message ${rid(c)}, and the 1 newer stub(s) allowed per resource (maxStubsPerResource) already say so — LIP decision \`applied\``,
    )
    const unlimited = await run(conv, { maxStubsPerResource: null })
    expect(summary(unlimited)).toEqual([`stub:superseded:${rid(a)}`, `stub:superseded:${rid(b)}`])
    const f = await run(conv, { faithful: true, tokenThreshold: 0 })
    expect(summary(f)).toEqual([`stub:superseded:${rid(a)}`, `stub:superseded:${rid(b)}`])
  })

  it('maxStubsPerResource: a group with its own text is stubbed, not dropped', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200), { say: 'Reading /a first.' })
    const b = exchange('read_file', { path: '/a' }, out(1300))
    const c = exchange('read_file', { path: '/a' }, out(1400))
    const r = await run(conversation([user('go'), a, b, c]))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`, `stub:superseded:${rid(b)}`])
    expect(detailOf(r.decisions[0])).toContain('(kept as a stub: its group holds other content)')
  })

  it('faithful tokenThreshold gate on Σ len(content)//4 (below_token_threshold); fixed leaves gating to the pipeline', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const b = exchange('read_file', { path: '/a' }, out(1200))
    // system 23 + user 2 + 1200 + 1200 chars = 2425 → 606 tokens
    const conv = conversation([user('go'), a, b])
    const gated = await run(conv, { faithful: true })
    expect(summary(gated)).toEqual([`skip:below_threshold:g${b[0]!.id}`])
    expect(detailOf(gated.decisions[0])).toBe(
      "Nothing compacted: LIP's estimate of 606 tokens (Σ len(content)//4) is not above tokenThreshold 100000 — LIP decision `below_token_threshold`",
    )
    expect(summary(await run(conv, { faithful: true, tokenThreshold: 606 }))[0]).toMatch(
      /^skip:below_threshold/,
    )
    expect(summary(await run(conv, { faithful: true, tokenThreshold: 605 }))).toEqual([
      `stub:superseded:${rid(a)}`,
    ])
    expect(summary(await run(conv))).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('orphan results (no call) have no identity and are left alone', async () => {
    const orphan = (text: string) => ({
      id: `orphan-${text.length}`,
      role: 'tool' as const,
      parts: [
        {
          kind: 'tool_result' as const,
          callId: 'gone',
          name: 'read_file',
          content: [{ kind: 'text' as const, text }],
          isError: false,
        },
      ],
    })
    const r = await run(conversation([user('go'), orphan(out(1200)), orphan(out(1300))]))
    expect(summary(r)).toEqual([expect.stringMatching(/^skip:keep_recent:/)])
    expect(detailOf(r.decisions[0])).toContain('each of the 0 identified tool results')
  })

  it('protected results are refused and recorded as protected', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const r = await run(
      conversation([user('go'), a, exchange('read_file', { path: '/a' }, out(5))]),
      {},
      { recentTurns: 1 },
    )
    expect(r.decisions.map((d) => [d.kind, d.reason])).toEqual([['protected', 'protected']])
    expect(r.resultText(rid(a))).toBe(out(1200))
  })
})
