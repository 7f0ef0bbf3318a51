import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { project } from '../compaction/project.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Message, ToolResultPart } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { supersedeStaleResultsStrategy as strategy } from './supersede-stale-results.ts'
import { normalizePathFaithful, normalizePathFixed } from './supersede-stale-results/identity.ts'
import {
  conversation,
  exchange,
  lipStub,
  rid,
  run,
  runOn,
  summary,
  user,
} from './supersede-stale-results/fixtures.ts'
import { detailOf } from '../compaction/sentence.ts'

const out = (n: number) => 'x'.repeat(n)
const FAITHFUL = { faithful: true, tokenThreshold: 0 }
const ALL = { allowedCategories: [], deniedCategories: [] }
const changes = (r: { decisions: readonly { kind: string }[] }) =>
  r.decisions.filter((d) => ['stub', 'exclude', 'trim', 'insert'].includes(d.kind)).length

describe('supersede-stale-results: engines.md §9 hard cases', () => {
  it('hard case 10: ranged reads are different resources', async () => {
    const a = exchange('Read', { file_path: '/a.py', offset: 0, limit: 100 }, out(1200))
    const b = exchange('Read', { file_path: '/a.py', offset: 100, limit: 100 }, out(1200))
    const conv = conversation([user('go'), a, b])
    for (const mode of [{}, FAITHFUL]) expect(changes(await run(conv, mode))).toBe(0)
  })

  it('hard case 10: a full read followed by a ranged read keeps both', async () => {
    const a = exchange('Read', { file_path: '/a.py' }, out(1200))
    const b = exchange('Read', { file_path: '/a.py', offset: 100, limit: 100 }, out(1200))
    for (const mode of [{}, FAITHFUL])
      expect(changes(await run(conversation([user('go'), a, b]), mode))).toBe(0)
  })

  it('hard case 10: a later full read supersedes earlier partial reads in fixed mode (recorded); LIP keeps them', async () => {
    const a = exchange('Read', { file_path: '/a.py', offset: 0, limit: 100 }, out(1200))
    const b = exchange('Read', { file_path: '/a.py' }, out(3000))
    const conv = conversation([user('go'), a, b])
    const r = await run(conv)
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    const d = r.decisions[0]
    expect(detailOf(d)).toBe(
      `Stubbed \`Read\` output for /a.py (offset:0, limit:100) (1200 bytes, 300 tokens by len//4): a later full read of the file is in message ${rid(b)} — LIP decision \`applied\``,
    )
    expect(d?.fixed).toBe(
      'LIP would have kept it: it keys the call as `Read:/a.py:offset:0:limit:100`, which has no newer result',
    )
    expect(d?.newer).toEqual({ message: 4, part: 0 })
    expect(changes(await run(conv, FAITHFUL))).toBe(0)
  })

  it('hard case 10: view_file ranges (StartLine/EndLine) are distinct in fixed mode; LIP keys them by path only', async () => {
    const a = exchange('view_file', { AbsolutePath: '/a.py', StartLine: 1, EndLine: 50 }, out(1200))
    const b = exchange(
      'view_file',
      { AbsolutePath: '/a.py', StartLine: 51, EndLine: 100 },
      out(1200),
    )
    const conv = conversation([user('go'), a, b])
    const r = await run(conv)
    // the annotated keep, then the run-level `no_stale_results`
    expect(summary(r)).toEqual([`skip:keep_recent:${rid(a)}`, `skip:keep_recent:g${b[0]!.id}`])
    expect(r.decisions[0]?.fixed).toBe(
      `LIP would have stubbed it: it keys the call as \`view_file:/a.py\`, the same key as the newer result in message ${rid(b)}`,
    )
    expect(summary(await run(conv, FAITHFUL))).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('hard case 11: read, edit, read again — the first read is stubbed, the edit untouched', async () => {
    const a = exchange('Read', { file_path: '/src/a.py' }, out(1200))
    const e = exchange(
      'Edit',
      { file_path: '/src/a.py', old_string: 'x', new_string: 'y' },
      out(1200),
    )
    const b = exchange('Read', { file_path: '/src/a.py' }, out(1300))
    const r = await run(conversation([user('go'), a, e, b]))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(r.decisions[0]?.newer).toEqual({ message: 6, part: 0 })
    expect(r.resultText(rid(e))).toBe(out(1200))
    expect(r.view.isModified({ message: 3, part: 0 })).toBe(false)
  })

  it('hard case 11: a read outdated only by an edit (no re-read) is stubbed in fixed mode only', async () => {
    const a = exchange('Read', { file_path: '/src/a.py' }, out(1200))
    const e = exchange(
      'Edit',
      { file_path: '/src/a.py', old_string: 'x', new_string: 'y' },
      out(1200),
    )
    const conv = conversation([user('go'), a, e])
    // LIP keys by resource only: an edit is not a newer copy of the read. Neither is it with the
    // write switch off.
    for (const mode of [FAITHFUL, { ...FAITHFUL, ...ALL }, { writesMakeStale: false }]) {
      const r = await run(conv, mode)
      expect(changes(r)).toBe(0)
      expect(r.decisions.map((d) => d.reason)).toEqual(['keep_recent'])
    }
    // Fixed mode: what the read showed is no longer the file.
    for (const mode of [{}, ALL]) {
      const r = await run(conv, mode)
      expect(summary(r)).toEqual([`stub:superseded_by_write:${rid(a)}`])
      expect(detailOf(r.decisions[0])).toContain('the file /src/a.py was modified at message')
    }
  })

  it('hard case 12: Windows paths — separators, trailing slash and drive letter are one resource', async () => {
    const ex = [
      exchange('read_file', { path: 'C:\\Repo\\src\\A.py' }, out(1200)),
      exchange('read_file', { path: 'c:/Repo/src/A.py' }, out(1200)),
      exchange('read_file', { path: 'C:\\Repo\\src\\A.py\\' }, out(1200)),
    ]
    const conv = conversation([user('go'), ...ex])
    const fixed = await run(conv, { maxStubsPerResource: null })
    expect(summary(fixed)).toEqual([
      `stub:superseded:${rid(ex[0]!)}`,
      `stub:superseded:${rid(ex[1]!)}`,
    ])
    expect(fixed.resultText(rid(ex[0]!))).toBe(lipStub('c:/repo/src/a.py', 1200))
    const faithful = await run(conv, FAITHFUL)
    expect(summary(faithful)).toEqual([
      `stub:superseded:${rid(ex[0]!)}`,
      `stub:superseded:${rid(ex[1]!)}`,
    ])
    expect(faithful.resultText(rid(ex[0]!))).toBe(lipStub('c:/Repo/src/A.py', 1200))
  })

  it('hard case 12: C:\\repo\\src\\a.py vs C:\\Repo\\src\\A.py — case-folded in fixed mode, different under LIP', async () => {
    const a = exchange('read_file', { path: 'C:\\Repo\\src\\A.py' }, out(1200))
    const b = exchange('read_file', { path: 'C:\\repo\\src\\a.py' }, out(1200))
    const conv = conversation([user('go'), a, b])
    const r = await run(conv)
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(r.decisions[0]?.fixed).toBe(
      'LIP would have kept it: it keys the call as `read_file:c:/Repo/src/A.py`, which has no newer result',
    )
    expect(changes(await run(conv, FAITHFUL))).toBe(0)
  })

  it('hard case 12: ./src/a.py, src/a.py and the absolute path under the cwd are one resource in fixed mode', async () => {
    const ex = [
      exchange('read_file', { path: './src/a.py' }, out(1200)),
      exchange('read_file', { path: 'src/a.py' }, out(1200)),
      exchange('read_file', { path: '/work/proj/src/../src/a.py' }, out(1200)),
    ]
    const conv = conversation([user('go'), ...ex], '/work/proj')
    const fixed = await run(conv, { maxStubsPerResource: null })
    expect(summary(fixed)).toEqual([
      `stub:superseded:${rid(ex[0]!)}`,
      `stub:superseded:${rid(ex[1]!)}`,
    ])
    expect(fixed.resultText(rid(ex[0]!))).toBe(lipStub('/work/proj/src/a.py', 1200))
    expect(changes(await run(conv, FAITHFUL))).toBe(0)
    // Without a known cwd, ./src/a.py and src/a.py still match; the absolute path does not.
    expect(normalizePathFixed('./src/a.py')).toBe('src/a.py')
    expect(normalizePathFixed('src//a.py/')).toBe('src/a.py')
    expect(normalizePathFixed('../x/./y', '/w/p')).toBe('/w/x/y')
    expect(normalizePathFaithful('./src/a.py/')).toBe('./src/a.py')
  })

  it('hard case 13: git status then git log — LIP keys both as `git`; fixed keys the full command line', async () => {
    const s = exchange('run_command', { CommandLine: 'git status' }, out(1200))
    const l = exchange('run_command', { CommandLine: 'git  log' }, out(1200))
    const conv = conversation([user('go'), s, l])
    const fixed = await run(conv, ALL)
    expect(summary(fixed)).toEqual([`skip:keep_recent:${rid(s)}`, `skip:keep_recent:g${l[0]!.id}`])
    expect(detailOf(fixed.decisions[1])).toContain('LIP decision `no_stale_results`')
    expect(detailOf(fixed.decisions[0])).toBe(
      'Kept `run_command` output for git status: it is the newest result for this resource',
    )
    expect(fixed.decisions[0]?.fixed).toBe(
      `LIP would have stubbed it: it keys the call as \`run_command:git\`, the same key as the newer result in message ${rid(l)}`,
    )
    const faithful = await run(conv, { ...FAITHFUL, ...ALL })
    expect(summary(faithful)).toEqual([`stub:superseded:${rid(s)}`])
    expect(faithful.resultText(rid(s))).toBe(lipStub('git', 1200))
    // The same command twice is superseded in both modes; whitespace runs do not matter.
    const again = exchange('run_command', { CommandLine: 'git status' }, out(1200))
    const r = await run(conversation([user('go'), s, again, l]), ALL)
    expect(summary(r)).toEqual([`stub:superseded:${rid(s)}`, `skip:keep_recent:${rid(again)}`])
    expect(r.resultText(rid(s))).toBe(lipStub('git status', 1200))
    expect(r.decisions[1]?.fixed).toContain(
      'LIP would have stubbed it: it keys the call as `run_command:git`',
    )
  })

  it('hard case 14: grep foo in src then grep bar in src — pattern is part of the identity', async () => {
    const a = exchange('grep_search', { pattern: 'foo', path: 'src' }, out(1200))
    const b = exchange('grep_search', { pattern: 'bar', path: 'src' }, out(1200))
    const conv = conversation([user('go'), a, b])
    const fixed = await run(conv)
    expect(summary(fixed)).toEqual([`skip:keep_recent:${rid(a)}`, `skip:keep_recent:g${b[0]!.id}`])
    expect(fixed.decisions[0]?.fixed).toBe(
      `LIP would have stubbed it: it keys the call as \`grep_search:src\`, the same key as the newer result in message ${rid(b)}`,
    )
    const faithful = await run(conv, FAITHFUL)
    expect(faithful.resultText(rid(a))).toBe(lipStub('src', 1200))
    // Same pattern and path: superseded; the stub names pattern and path.
    const c = exchange('Grep', { pattern: 'foo', path: 'src', output_mode: 'content' }, out(1200))
    const d = exchange('Grep', { pattern: 'foo', path: 'src', output_mode: 'content' }, out(5))
    const r = await run(conversation([user('go'), c, d]))
    expect(r.resultText(rid(c))).toBe(lipStub('foo (path:src, output_mode=content)', 1200))
  })

  it('hard case 15: mcp__fs__read_file is file_read in fixed mode, `other` (not allowed) under LIP', async () => {
    const a = exchange('mcp__fs__read_file', { path: '/a.py' }, out(1200))
    const b = exchange('mcp__fs__read_file', { path: '/a.py' }, out(5))
    const conv = conversation([user('go'), a, b])
    const fixed = await run(conv)
    expect(summary(fixed)).toEqual([`stub:superseded:${rid(a)}`])
    expect(fixed.decisions[0]?.fixed).toBe(
      'LIP would have kept it: it categorises `mcp__fs__read_file` as `other` and category `other` is not on the allow list',
    )
    expect(summary(await run(conv, FAITHFUL))).toEqual([`skip:denied_by_policy:${rid(a)}`])
  })

  it('hard case 15: Read, read-file and ReadFile all categorise as file_read; list_directory entries', async () => {
    for (const name of ['Read', 'read-file', 'ReadFile']) {
      const a = exchange(name, { file_path: '/a.py' }, out(1200))
      const r = await run(
        conversation([user('go'), a, exchange(name, { file_path: '/a.py' }, out(5))]),
        FAITHFUL,
      )
      expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    }
    const l = exchange('LS', { path: '/src' }, out(1200))
    const conv = conversation([user('go'), l, exchange('LS', { path: '/src' }, out(5))])
    const params = { allowedCategories: ['list_directory'], deniedCategories: [] }
    const fixed = await run(conv, params)
    expect(summary(fixed)).toEqual([`stub:superseded:${rid(l)}`])
    const faithful = await run(conv, { ...FAITHFUL, ...params })
    expect(summary(faithful)).toEqual([`skip:denied_by_policy:${rid(l)}`])
    const denied = await run(conv, { deniedCategories: ['list_directory'] })
    expect(detailOf(denied.decisions[0])).toContain(
      'category `list_dir` is denied (config entry `list_directory` read as `list_dir`)',
    )
  })

  it('hard case 16: small stale outputs stay; a stub that is not smaller is never applied in fixed mode', async () => {
    const a = exchange('read_file', { path: '/a' }, 'short output')
    const b = exchange('read_file', { path: '/a' }, 'newer')
    const conv = conversation([user('go'), a, b])
    expect(summary(await run(conv))).toEqual([`skip:skipped_below_min_tokens:${rid(a)}`])
    const r = await run(conv, { minToolOutputTokens: 0 })
    expect(summary(r)).toEqual([`skip:no_savings:${rid(a)}`])
    expect(r.decisions[0]?.fixed).toBe(
      'LIP would have applied the stub anyway: it only checks min_tool_output_tokens_to_compact',
    )
    expect(r.resultText(rid(a))).toBe('short output')
    // Faithful reproduces LIP: with the minimum at 0 it writes the longer stub.
    const f = await run(conv, { ...FAITHFUL, minToolOutputTokens: 0 })
    expect(summary(f)).toEqual([`stub:superseded:${rid(a)}`])
    expect(f.decisions[0]!.tokensAfter).toBeGreaterThan(f.decisions[0]!.tokensBefore)
  })

  it('hard case 17: idempotence — a second run on the projection changes nothing and recognises the stub', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const b = exchange('read_file', { path: '/a' }, out(1300))
    const c = exchange('read_file', { path: '/a' }, out(1400))
    const d = exchange('read_file', { path: '/b' }, out(1400), { say: 'and /b' })
    const e = exchange('read_file', { path: '/b' }, out(1400))
    for (const params of [
      {},
      FAITHFUL,
      { stubTemplate: 'Old output of {tool} on {resource} removed ({tokens} tokens).' },
    ]) {
      const conv = conversation([user('go'), a, b, c, d, e])
      const first = await run(conv, params)
      expect(changes(first)).toBeGreaterThan(0)
      const projection = project(first.view)
      const second = await run(projection, params)
      expect(changes(second)).toBe(0)
      expect(
        second.decisions.filter((x) => x.reason === 'already_compacted').length,
      ).toBeGreaterThan(0)
      expect(project(second.view)).toEqual(projection)
      // Same view, second pass (replay keeps decisions): nothing more either.
      const again = await runOn(first.view, params)
      expect(changes(again)).toBe(0)
    }
  })

  it('hard case 17: the pipeline invariants hold (newest result intact, idempotent, no split)', async () => {
    const conv = conversation([
      user('go'),
      exchange('Read', { file_path: '/a.py', offset: 1, limit: 50 }, out(1200)),
      exchange('Read', { file_path: '/a.py' }, out(1300)),
      exchange('Read', { file_path: '/a.py' }, out(1300)),
      exchange('Read', { file_path: '/a.py' }, out(1400)),
      exchange('Bash', { command: 'npm test' }, out(1400)),
      exchange('Bash', { command: 'npm test' }, out(1400)),
    ])
    const config: EngineConfig = {
      window: { contextTokens: 100_000, reservedOutput: 0, buffer: 0 },
      protections: DEFAULT_PROTECTIONS,
      pipeline: [{ strategy: strategy.id, enabled: true, params: {} }],
      fallback: { enabled: false, strict: false },
    }
    const result = await compact(
      conv,
      config,
      { counter: estimateCounter },
      new Map([[strategy.id, strategy]]),
    )
    expect(result.invariants.checks.filter((c) => !c.ok)).toEqual([])
    expect(result.changes).toBe(3)
  })

  it('hard case 33: secrets in resource identifiers are redacted in stubs and details', async () => {
    const cmd = 'curl -H "Authorization: Bearer abc.DEF_123" https://api.example.com/v1'
    const a = exchange('run_command', { CommandLine: cmd }, out(1200))
    const b = exchange('run_command', { CommandLine: cmd }, out(5))
    const r = await run(conversation([user('go'), a, b]), {
      ...ALL,
      redactResourceIdentifiers: true,
    })
    expect(r.resultText(rid(a))).toBe(
      lipStub('curl -H "Authorization: Bearer ***" https://api.example.com/v1', 1200),
    )
    expect(detailOf(r.decisions[0])).not.toContain('abc.DEF_123')
    const plain = await run(conversation([user('go'), a, b]), ALL)
    expect(plain.resultText(rid(a))).toContain('Bearer abc.DEF_123')
  })
})

describe('supersede-stale-results: argument shapes LIP misses', () => {
  it('Codex array commands and opencode filePath get an identity in fixed mode only', async () => {
    const a = exchange(
      'shell',
      { command: ['bash', '-lc', 'git status'], workdir: '/w' },
      out(1200),
    )
    const b = exchange('shell', { command: ['bash', '-lc', 'git status'], workdir: '/w' }, out(5))
    const r = await run(conversation([user('go'), a, b]), ALL)
    expect(r.resultText(rid(a))).toBe(lipStub('bash -lc git status (cwd:/w)', 1200))
    expect(r.decisions[0]?.fixed).toBe(
      'LIP would have kept it: it finds no resource identity in the arguments',
    )
    const c = exchange('read', { filePath: '/p/a.ts' }, out(1200))
    const d = exchange('read', { filePath: '/p/a.ts' }, out(5))
    expect(summary(await run(conversation([user('go'), c, d])))).toEqual([
      `stub:superseded:${rid(c)}`,
    ])
    expect(changes(await run(conversation([user('go'), c, d]), FAITHFUL))).toBe(0)
  })

  it('image-only results: LIP skips them (no text); fixed stubs them, sized by the engine count', async () => {
    const shot = (bytes: number): Message[] => {
      const [call, res] = exchange('screenshot', { path: '/tmp/s.png' }, '')
      const part = res!.parts[0] as ToolResultPart
      return [
        call!,
        {
          ...res!,
          parts: [{ ...part, content: [{ kind: 'image', mediaType: 'image/png', bytes }] }],
        },
      ]
    }
    const a = shot(40_000)
    const conv = conversation([user('go'), a, shot(41_000)])
    const r = await run(conv, ALL)
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(detailOf(r.decisions[0])).toContain('(40000 bytes, ')
    expect(detailOf(r.decisions[0])).toContain('tokens (engine count: it has attachments)')
    expect(r.resultText(rid(a))).toBe(lipStub('/tmp/s.png', 40000))
    expect(changes(await run(conv, { ...FAITHFUL, ...ALL }))).toBe(0)
  })

  it('raw (non-JSON) arguments become the primary key, as in LIP', async () => {
    const a = exchange('cat', 'notes.txt', out(1200))
    const b = exchange('cat', 'notes.txt', out(5))
    for (const mode of [{}, FAITHFUL]) {
      const r = await run(conversation([user('go'), a, b]), mode)
      expect(r.resultText(rid(a))).toBe(lipStub('notes.txt', 1200))
    }
  })

  it('prepare() is not affected: the input conversation is never mutated', async () => {
    const conv = conversation([
      user('go'),
      exchange('read_file', { path: '/a' }, out(1200)),
      exchange('read_file', { path: '/a' }, out(5)),
    ])
    const snapshot = JSON.stringify(conv)
    await runOn(new WorkingView(prepare(conv, estimateCounter)))
    expect(JSON.stringify(conv)).toBe(snapshot)
  })
})
