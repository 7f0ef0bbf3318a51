import { describe, expect, it } from 'vitest'
import { supersedeStaleResultsStrategy as strategy } from './supersede-stale-results.ts'
import { categorizeFaithful, categorizeFixed } from './supersede-stale-results/categories.ts'
import { extractFaithful } from './supersede-stale-results/identity.ts'
import { lipKey } from './supersede-stale-results/notes.ts'
import { redactText } from './supersede-stale-results/redact.ts'
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

const out = (n: number, ch = 'x') => ch.repeat(n)
const ALL = { allowedCategories: [], deniedCategories: [] } // what LIP's from_dict really yields

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

  it('redact_resource_identifiers false keeps /home/user/project/config.py visible', async () => {
    const a = exchange('read_file', { path: '/home/user/project/config.py' }, out(2500))
    const b = exchange('read_file', { path: '/home/user/project/config.py' }, out(10))
    for (const faithful of [false, true]) {
      const r = await run(conversation([user('go'), a, b]), { faithful, tokenThreshold: 0 })
      expect(r.resultText(rid(a))).toBe(lipStub('/home/user/project/config.py', 2500))
    }
  })

  it('redact_resource_identifiers true gives /home/user/***/***.py when the segments are keys', async () => {
    // The guide shows /home/user/project/config.py becoming /home/user/***/***.py; LIP's
    // redact_text only masks key patterns, so the example holds for segments that are keys.
    const path = '/home/user/sk-proj-abcdefghijklmnopqrstu/ak-ant-abcdefghijklmnopqrstu.py'
    const a = exchange('read_file', { path }, out(2500))
    const b = exchange('read_file', { path }, out(10))
    for (const faithful of [false, true]) {
      const r = await run(conversation([user('go'), a, b]), {
        faithful,
        tokenThreshold: 0,
        redactResourceIdentifiers: true,
      })
      expect(r.resultText(rid(a))).toBe(lipStub('/home/user/***/***.py', 2500))
      const d = r.decisions.find((x) => x.kind === 'stub')
      expect(d?.detail).not.toContain('sk-proj')
    }
  })

  it('Example 1 (basic setup): compacts every category except file writes and command execution', async () => {
    const v = [
      exchange('view_file', { AbsolutePath: '/a.py' }, out(1200)),
      exchange('view_file', { AbsolutePath: '/a.py' }, out(5)),
    ]
    const c = [
      exchange('run_command', { CommandLine: 'make' }, out(1200)),
      exchange('run_command', { CommandLine: 'make' }, out(5)),
    ]
    const w = [
      exchange('write_file', { TargetFile: '/b.py' }, out(1200)),
      exchange('write_file', { TargetFile: '/b.py' }, out(5)),
    ]
    const r = await run(conversation([user('go'), ...v, ...c, ...w]))
    expect(summary(r)).toEqual([
      `stub:superseded:${rid(v[0]!)}`,
      `skip:denied_by_policy:${rid(c[0]!)}`,
      `skip:denied_by_policy:${rid(w[0]!)}`,
    ])
    expect(r.decisions[1]?.detail).toBe(
      `Kept \`run_command\` output for make: category \`command_execution\` is denied, though a newer result is in message ${rid(c[1]!)} — LIP decision \`denied_by_policy\``,
    )
  })

  it('Example 3 (aggressive): command_execution is NOT compacted — it is missing from the allow list', async () => {
    // The guide claims commands get compacted here; LIP's code requires a non-empty allow list
    // to contain the category. `list_directory` never matches in LIP; fixed mode reads it as list_dir.
    const params = {
      allowedCategories: ['file_read', 'view_file', 'search', 'list_directory', 'test_execution'],
      deniedCategories: ['file_write'],
      tokenThreshold: 0,
    }
    const c = [
      exchange('bash', { command: 'make' }, out(1200)),
      exchange('bash', { command: 'make' }, out(5)),
    ]
    const l = [
      exchange('list_dir', { DirectoryPath: '/src' }, out(1200)),
      exchange('list_dir', { DirectoryPath: '/src' }, out(5)),
    ]
    const conv = conversation([user('go'), ...c, ...l])
    const fixed = await run(conv, params)
    expect(summary(fixed)).toEqual([
      `skip:denied_by_policy:${rid(c[0]!)}`,
      `stub:superseded:${rid(l[0]!)}`,
    ])
    expect(fixed.decisions[0]?.detail).toContain(
      'category `command_execution` is not on the allow list',
    )
    expect(fixed.decisions[1]?.fixed).toBe(
      'LIP would have kept it: it categorises `list_dir` as `list_dir` and category `list_dir` is not on the allow list',
    )
    const faithful = await run(conv, { ...params, faithful: true })
    expect(summary(faithful)).toEqual([
      `skip:denied_by_policy:${rid(c[0]!)}`,
      `skip:denied_by_policy:${rid(l[0]!)}`,
    ])
  })

  it('Example 4 (selective): only file reads and views are compacted', async () => {
    const params = {
      allowedCategories: ['file_read', 'view_file'],
      deniedCategories: ['command_execution', 'test_execution', 'search', 'list_directory'],
    }
    const f = [
      exchange('read_file', { path: '/a' }, out(1200)),
      exchange('read_file', { path: '/a' }, out(5)),
    ]
    const s = [
      exchange('grep_search', { Query: 'foo' }, out(1200)),
      exchange('grep_search', { Query: 'foo' }, out(5)),
    ]
    const t = [
      exchange('run_tests', { command: 'npm test' }, out(1200)),
      exchange('run_tests', { command: 'npm test' }, out(5)),
    ]
    const r = await run(conversation([user('go'), ...f, ...s, ...t]), params)
    expect(summary(r)).toEqual([
      `stub:superseded:${rid(f[0]!)}`,
      `skip:denied_by_policy:${rid(s[0]!)}`,
      `skip:denied_by_policy:${rid(t[0]!)}`,
    ])
  })

  it('Example 5 (custom stub template with {resource} and {size})', async () => {
    const template =
      '[COMPACTED: {resource}] Removed {size} bytes of previous output.\nA more recent result for this resource is available later in the conversation.\n'
    const a = exchange('read_file', { path: '/src/main.py' }, out(1500))
    const b = exchange('read_file', { path: '/src/main.py' }, out(10))
    const conv = conversation([user('go'), a, b])
    const r = await run(conv, { stubTemplate: template })
    expect(r.resultText(rid(a))).toBe(
      '[COMPACTED: /src/main.py] Removed 1500 bytes of previous output.\nA more recent result for this resource is available later in the conversation.\n',
    )
    // LIP never reads stub_template: faithful mode writes the hard-coded text.
    const f = await run(conv, { stubTemplate: template, faithful: true, tokenThreshold: 0 })
    expect(f.resultText(rid(a))).toBe(lipStub('/src/main.py', 1500))
  })

  it('stub template placeholders {tool}, {tokens}, {category}, {bytes}', async () => {
    const a = exchange('Read', { file_path: '/a.py', offset: 10, limit: 5 }, out(1203))
    const b = exchange('Read', { file_path: '/a.py', offset: 10, limit: 5 }, out(5))
    const r = await run(conversation([user('go'), a, b]), {
      stubTemplate: '[stale {category}] {tool} on {resource}: {bytes} bytes, ~{tokens} tokens',
    })
    expect(r.resultText(rid(a))).toBe(
      '[stale file_read] Read on /a.py (offset:10, limit:5): 1203 bytes, ~300 tokens',
    )
  })

  it('denied list takes precedence when a category is in both lists (FAQ)', async () => {
    const a = [
      exchange('read_file', { path: '/a' }, out(1200)),
      exchange('read_file', { path: '/a' }, out(5)),
    ]
    const r = await run(conversation([user('go'), ...a]), {
      allowedCategories: ['file_read'],
      deniedCategories: ['file_read'],
    })
    expect(summary(r)).toEqual([`skip:denied_by_policy:${rid(a[0]!)}`])
    expect(r.decisions[0]?.detail).toContain('category `file_read` is denied')
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
    expect(stubs[0]?.detail).toBe(
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
    expect(r.decisions[0]?.detail).toBe(
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
    expect(r.decisions[0]?.detail).toBe(
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
    expect(r.decisions[1]?.detail).toBe(
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
    expect(r.decisions[0]?.detail).toBe(
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
    expect(r.decisions[0]?.detail).toContain('(kept as a stub: its group holds other content)')
  })

  it('allowedTools beats a denied category; deniedTools beats allowedTools (deny wins)', async () => {
    const c = [
      exchange('Bash', { command: 'make' }, out(1200)),
      exchange('Bash', { command: 'make' }, out(5)),
    ]
    const allowed = await run(conversation([user('go'), ...c]), { allowedTools: ['bash'] })
    expect(summary(allowed)).toEqual([`stub:superseded:${rid(c[0]!)}`])
    const both = await run(conversation([user('go'), ...c]), {
      allowedTools: ['bash'],
      deniedTools: ['BASH'],
    })
    expect(summary(both)).toEqual([`skip:denied_by_policy:${rid(c[0]!)}`])
    expect(both.decisions[0]?.detail).toContain('tool `Bash` is on deniedTools')
    const r = [
      exchange('read_file', { path: '/a' }, out(1200)),
      exchange('read_file', { path: '/a' }, out(5)),
    ]
    const denied = await run(conversation([user('go'), ...r]), { deniedTools: ['read_file'] })
    expect(summary(denied)).toEqual([`skip:denied_by_policy:${rid(r[0]!)}`])
  })

  it('faithful tokenThreshold gate on Σ len(content)//4 (below_token_threshold); fixed leaves gating to the pipeline', async () => {
    const a = exchange('read_file', { path: '/a' }, out(1200))
    const b = exchange('read_file', { path: '/a' }, out(1200))
    // system 23 + user 2 + 1200 + 1200 chars = 2425 → 606 tokens
    const conv = conversation([user('go'), a, b])
    const gated = await run(conv, { faithful: true })
    expect(summary(gated)).toEqual([`skip:below_threshold:g${b[0]!.id}`])
    expect(gated.decisions[0]?.detail).toBe(
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
    expect(r.decisions[0]?.detail).toContain('each of the 0 identified tool results')
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

  it('redaction: Bearer tokens, sk- and ak-ant keys become ***', () => {
    expect(redactText('curl -H "Authorization: Bearer abc.DEF-123_x=" https://api')).toBe(
      'curl -H "Authorization: Bearer ***" https://api',
    )
    expect(redactText('key sk-abcdefghijklmnopqrstuvwxyz and ak-ant-api03-abcdefghijklmnopq')).toBe(
      'key *** and ***',
    )
    expect(redactText('0123456789abcdef0123456789abcdef.ABCDEFGHIJKLMNOPqr')).toBe('***')
    expect(redactText('/home/user/project/config.py')).toBe('/home/user/project/config.py')
  })

  it('schema: LIP defaults and clear rejections', () => {
    expect(strategy.schema.parse({})).toEqual({
      faithful: false,
      tokenThreshold: 100_000,
      allowedCategories: ['file_read', 'view_file', 'search', 'list_dir', 'test_execution'],
      deniedCategories: ['file_write', 'command_execution'],
      allowedTools: [],
      deniedTools: [],
      preserveLastN: 1,
      maxStubsPerResource: 1,
      minToolOutputTokens: 250,
      stubTemplate: lipStub('{resource}', 0).replace('(0 bytes)', '({bytes} bytes)'),
      redactResourceIdentifiers: false,
    })
    const error = (p: object) => {
      const r = strategy.schema.safeParse(p)
      return r.success ? '' : r.error.issues.map((i) => i.message).join('; ')
    }
    expect(error({ allowedCategories: ['file_reads'] })).toContain(
      'unknown tool category "file_reads"; expected one of file_read,',
    )
    expect(error({ stubTemplate: '[COMPACTED] {resource} {path}' })).toContain(
      'unknown placeholder(s) {path}',
    )
    expect(error({ stubTemplate: '{resource} ({bytes})' })).toContain(
      'at least 8 characters of literal text',
    )
    expect(error({ preserveLastN: 0 })).toBe('preserveLastN must be at least 1')
    expect(error({ minToolOutputTokens: 1.5 })).toBe('minToolOutputTokens must be a whole number')
    expect(error({ preserve_last_n_results: 2 })).toMatch(/preserve_last_n_results/)
    expect(error(ALL)).toBe('')
  })

  it('categories: LIP exact normalised lookup; fixed adds Claude Code names and strips mcp__ prefixes', () => {
    for (const [name, lip, fixed] of [
      ['Read', 'file_read', 'file_read'],
      ['read-file', 'file_read', 'file_read'],
      ['ReadFile', 'file_read', 'file_read'],
      ['mcp__fs__read_file', 'other', 'file_read'],
      ['view_file_outline', 'view_file', 'view_file'],
      ['Grep', 'other', 'search'],
      ['Glob', 'other', 'search'],
      ['LS', 'list_dir', 'list_dir'],
      ['Bash', 'command_execution', 'command_execution'],
      ['Edit', 'other', 'file_write'],
      ['MultiEdit', 'other', 'file_write'],
      ['NotebookEdit', 'other', 'file_write'],
      ['Write', 'other', 'file_write'],
      ['npm-test', 'test_execution', 'test_execution'],
      ['TodoWrite', 'other', 'other'],
    ] as const) {
      expect([name, categorizeFaithful(name), categorizeFixed(name)]).toEqual([name, lip, fixed])
    }
  })
})
