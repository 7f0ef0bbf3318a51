import { describe, expect, it } from 'vitest'
import { supersedeStaleResultsStrategy as strategy } from './supersede-stale-results.ts'
import { categorizeFaithful, categorizeFixed } from './supersede-stale-results/categories.ts'
import { redactText } from './supersede-stale-results/redact.ts'
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
const ALL = { allowedCategories: [], deniedCategories: [] } // what LIP's from_dict really yields

describe('supersede-stale-results: seed examples (LIP user guide)', () => {
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
      expect(detailOf(d)).not.toContain('sk-proj')
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
    expect(detailOf(r.decisions[1])).toBe(
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
    expect(detailOf(fixed.decisions[0])).toContain(
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
    expect(detailOf(r.decisions[0])).toContain('category `file_read` is denied')
  })
})

describe('supersede-stale-results: decisions and parameters', () => {
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
    expect(detailOf(both.decisions[0])).toContain('tool `Bash` is on deniedTools')
    const r = [
      exchange('read_file', { path: '/a' }, out(1200)),
      exchange('read_file', { path: '/a' }, out(5)),
    ]
    const denied = await run(conversation([user('go'), ...r]), { deniedTools: ['read_file'] })
    expect(summary(denied)).toEqual([`skip:denied_by_policy:${rid(r[0]!)}`])
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
      writesMakeStale: true,
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
