import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CompactReport } from './compact.ts'
import { main } from './main.ts'

function capture() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out,
    err,
  }
}
const dir = mkdtempSync(join(tmpdir(), 'cl-compact-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const big = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of the file`).join('\n')
// Three reads of the same file: the first two are stale once the third exists.
const chat = JSON.stringify({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Look at src/a.ts three times.' },
    ...[1, 2, 3].flatMap((i) => [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `c${i}`,
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: `c${i}`, content: big(400) },
    ]),
    { role: 'assistant', content: 'Done.' },
  ],
})

const lipConfig = {
  version: 1,
  name: 'tight-lip',
  window: { contextTokens: 8000, reservedOutput: 1000 },
  pipeline: [
    {
      strategy: 'supersede-stale-results',
      params: { minToolOutputTokens: 10, maxStubsPerResource: null },
    },
  ],
}

describe('compaction-lab compact', () => {
  it('writes the compacted conversation in its source format and the report of SPEC §8', async () => {
    const c = capture()
    const out = join(dir, 'out.json')
    const report = join(dir, 'report.json')
    const code = await main(
      [
        'compact',
        file('chat.json', chat),
        '--config',
        file('lip.json', JSON.stringify(lipConfig)),
        '--out',
        out,
        '--report',
        report,
        '--replay',
      ],
      c.io,
    )
    expect(code).toBe(0)
    const r = JSON.parse(readFileSync(report, 'utf8')) as CompactReport
    expect(r.tokens.before).toBeGreaterThan(r.tokens.after)
    expect(r.invariants.ok).toBe(true)
    const stubs = r.decisions.filter((d) => d.kind === 'stub')
    expect(stubs).toHaveLength(2)
    for (const d of stubs) {
      expect(d).toMatchObject({ strategy: 'supersede-stale-results', reason: 'superseded' })
      expect(d.groupId).toMatch(/^g/)
      expect(d.tokensAfter).toBeLessThan(d.tokensBefore)
    }
    expect(r.replay?.length).toBe(4)
    const written = JSON.parse(readFileSync(out, 'utf8')) as {
      messages: { content: string | null }[]
    }
    expect(written.messages[3]?.content).toMatch(/^\[COMPACTED\] Previous output for src\/a\.ts/)
    expect(written.messages[7]?.content).toBe(big(400))
    expect(c.err.join('')).toMatch(/invariants ok/)
  })

  it('writes the decisions as CSV with --report-csv (default or chosen columns)', async () => {
    const c = capture()
    const csv = join(dir, 'decisions.csv')
    const report = join(dir, 'report-csv.json')
    const cfg = file('lip-csv.json', JSON.stringify(lipConfig))
    const input = file('chat-csv.json', chat)
    const args = ['compact', input, '--config', cfg, '--report', report, '--report-csv', csv]
    expect(await main(args, c.io)).toBe(0)
    const r = JSON.parse(readFileSync(report, 'utf8')) as CompactReport
    const lines = readFileSync(csv, 'utf8').split('\r\n')
    expect(lines[0]).toBe(
      'index,kind,strategy,step,groupId,reason,tokensBefore,tokensAfter,saved,detail',
    )
    expect(lines).toHaveLength(r.decisions.length + 2) // header + rows + final CRLF
    const stub = r.decisions.findIndex((d) => d.kind === 'stub')
    expect(lines[stub + 1]).toMatch(
      /^\d+,stub,supersede-stale-results,0,g\w+,superseded,\d+,\d+,\d+,/,
    )
    expect(c.err.join('')).toMatch(/decisions CSV/)

    expect(await main([...args, '--csv-columns', 'kind,saved'], capture().io)).toBe(0)
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe('kind,saved')
    const bad = capture()
    expect(await main([...args, '--csv-columns', 'kind,nope'], bad.io)).toBe(2)
    expect(bad.err.join('')).toMatch(/unknown --csv-columns nope/)
  })

  it('runs every preset by id and writes to stdout without --out', async () => {
    for (const preset of [
      'recommended',
      'lip',
      'adachsoft',
      'falai',
      'opencode',
      'maf-context-window',
      'anthropic-clear-tool-uses',
    ]) {
      const c = capture()
      expect(await main(['compact', file('p.json', chat), '--preset', preset], c.io), preset).toBe(
        0,
      )
      expect(JSON.parse(c.out.join('')).messages.length).toBeGreaterThan(0)
    }
  })

  it('says on stderr why a run changed nothing', async () => {
    const c = capture()
    expect(await main(['compact', file('q.json', chat), '--preset', 'recommended'], c.io)).toBe(0)
    // A small chat is far under the preset's 200k window: no step fires.
    expect(c.err.join('')).toMatch(/Nothing changed: not triggered at \d+ % of the usable window/)
  })

  it('rejects a bad config with the path of each problem (exit 1)', async () => {
    const c = capture()
    const bad = {
      ...lipConfig,
      window: { contextTokens: -1, reservedOutput: 0 },
      pipeline: [
        { strategy: 'truncation', params: { maxN: 5, compactTo: 9 } },
        { strategy: 'nope' },
      ],
    }
    expect(
      await main(
        ['compact', file('c.json', chat), '--config', file('bad.json', JSON.stringify(bad))],
        c.io,
      ),
    ).toBe(1)
    expect(c.err.join('')).toMatch(/window\.contextTokens/)
    const c2 = capture()
    const bad2 = {
      ...lipConfig,
      pipeline: [
        { strategy: 'truncation', params: { maxN: 5, compactTo: 9 } },
        { strategy: 'nope' },
      ],
    }
    expect(
      await main(
        ['compact', file('c.json', chat), '--config', file('bad2.json', JSON.stringify(bad2))],
        c2.io,
      ),
    ).toBe(1)
    expect(c2.err.join('')).toMatch(/pipeline\[0\]\.params/)
    expect(c2.err.join('')).toMatch(/pipeline\[1\]\.strategy: unknown strategy "nope"/)
    const c3 = capture()
    expect(
      await main(
        ['compact', file('c.json', chat), '--config', file('broken.json', '{"version": 1,')],
        c3.io,
      ),
    ).toBe(1)
    expect(c3.err.join('')).toMatch(/line 1, offset \d+/)
  })

  it('reports removed content the agent used later (risk)', async () => {
    const call = (id: string, name: string, args: object) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    })
    const session = JSON.stringify({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'The settings loader crashes on empty files.' },
        call('c1', 'grep', { pattern: 'def parse' }),
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: 'src/settings/loader.py:212: def parse_config(path):\n' + big(200),
        },
        call('c2', 'read_file', { path: 'README.txt' }),
        { role: 'tool', tool_call_id: 'c2', content: big(200) },
        { role: 'assistant', content: 'I will guard parse_config in src/settings/loader.py.' },
      ],
    })
    const clear = {
      version: 1,
      name: 'clear-old',
      window: { contextTokens: 100_000, reservedOutput: 1000 },
      protections: { recentTurns: 0 },
      pipeline: [{ strategy: 'clear-tool-uses', params: { triggerInputTokens: 0, keep: 1 } }],
    }
    const path = join(dir, 'risk.report.json')
    const c = capture()
    const code = await main(
      [
        'compact',
        file('risk.json', session),
        '--config',
        file('clear.json', JSON.stringify(clear)),
        '--report',
        path,
      ],
      c.io,
    )
    expect(code).toBe(0)
    const report = JSON.parse(readFileSync(path, 'utf8')) as CompactReport
    const cleared = report.decisions.find((d) => d.kind === 'stub')
    expect(report.risk).toMatchObject({
      usedLater: 1,
      items: [
        {
          groupId: cleared?.groupId,
          evidence: ['parse_config', 'src/settings/loader.py'],
          callsLater: 2,
        },
      ],
    })
    const [item] = report.risk.items
    expect(typeof item?.laterMessageId).toBe('string')
    expect(report.risk.tokens).toBe(item?.tokens)
    expect(item?.tokens).toBe((cleared?.tokensBefore ?? 0) - (cleared?.tokensAfter ?? 0))
    expect(c.err.join('')).toMatch(/1 removed then used later/)
  })

  it('exits 2 on usage errors', async () => {
    expect(await main(['compact', 'x.json'], capture().io)).toBe(2)
    expect(
      await main(['compact', 'x.json', '--preset', 'lip', '--config', 'c.json'], capture().io),
    ).toBe(2)
    expect(await main(['compact', 'x.json', '--preset', 'nope'], capture().io)).toBe(2)
    const path = file('s.json', chat)
    expect(
      await main(['compact', path, '--preset', 'lip', '--summarizer', 'openai-chat'], capture().io),
    ).toBe(2)
    expect(
      await main(['compact', path, '--preset', 'lip', '--summarizer', 'gpt'], capture().io),
    ).toBe(2)
  })
})

describe('compaction-lab export-config', () => {
  it('prints our versioned format with every default filled in', async () => {
    const c = capture()
    expect(await main(['export-config', file('lip2.json', JSON.stringify(lipConfig))], c.io)).toBe(
      0,
    )
    const out = JSON.parse(c.out.join('')) as Record<string, unknown>
    expect(out.version).toBe(1)
    expect(out.$schema).toMatch(/config-v1\.json$/)
    expect(JSON.stringify(out)).toMatch(/"stubTemplate"/)
  })

  it('rejects a config from a newer version', async () => {
    const c = capture()
    expect(
      await main(
        ['export-config', file('v9.json', JSON.stringify({ ...lipConfig, version: 9 }))],
        c.io,
      ),
    ).toBe(1)
    expect(c.err.join('')).toMatch(/newer than this tool/)
  })
})
