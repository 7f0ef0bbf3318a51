import { describe, expect, it } from 'vitest'
import {
  conversation,
  exchange,
  rid,
  run,
  summary,
  user,
} from './supersede-stale-results/fixtures.ts'
import { detailOf } from '../compaction/sentence.ts'

const out = (n: number) => 'x'.repeat(n)
const FAITHFUL = { faithful: true, tokenThreshold: 0 }
const changes = (r: { decisions: readonly { kind: string }[] }) =>
  r.decisions.filter((d) => ['stub', 'exclude', 'trim', 'insert'].includes(d.kind)).length

describe('supersede-stale-results: shell commands as resources', () => {
  it('Codex exec_command: sed -n then cat of the same file — the ranged read is superseded', async () => {
    const a = exchange(
      'exec_command',
      { cmd: "sed -n '1,220p' src/x.ts", workdir: '/repo' },
      out(1200),
    )
    const b = exchange('exec_command', { cmd: 'cat /repo/src/x.ts' }, out(1400))
    const r = await run(conversation([user('go'), a, b]))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(detailOf(r.decisions[0])).toContain('/repo/src/x.ts (lines 1-220)')
    expect(detailOf(r.decisions[0])).toContain('a later full read of the file')
    expect(r.resultText(rid(a))).toContain('[COMPACTED] Previous output for /repo/src/x.ts')
  })

  it('different ranges never collapse; a covering range supersedes', async () => {
    const a = exchange('exec_command', { cmd: "sed -n '40,180p' x.ts" }, out(1200))
    const b = exchange('exec_command', { cmd: "sed -n '180,520p' x.ts" }, out(1200))
    const c = exchange('exec_command', { cmd: "nl -ba x.ts | sed -n '1,200p'" }, out(1200))
    const r = await run(conversation([user('go'), a, b, c], '/repo'))
    // a (40-180) is covered by c (1-200); b (180-520) is not.
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(detailOf(r.decisions[0])).toContain('a later read of the file that covers these lines')
  })

  it('cd dir && cat x (Claude Code Bash) and Read of the same file share the file', async () => {
    const a = exchange('Bash', { command: 'cd /repo/pkg && cat src/a.ts' }, out(1200))
    const b = exchange('Read', { file_path: '/repo/pkg/src/a.ts' }, out(1200))
    const r = await run(conversation([user('go'), a, b]))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('argv arrays (Codex shell) and quoted paths', async () => {
    const a = exchange('shell', { command: ['bash', '-lc', "cat 'my dir/a b.md'"] }, out(1200))
    const b = exchange('shell', { command: ['cat', '/repo/my dir/a b.md'] }, out(1200))
    const r = await run(conversation([user('go'), a, b], '/repo'))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('the same search twice (options in another order) is superseded; another pattern is not', async () => {
    const a = exchange('exec_command', { cmd: 'rg -n -i "budget" src' }, out(1200))
    const b = exchange('exec_command', { cmd: 'rg -n "usage" src' }, out(1200))
    const c = exchange('exec_command', { cmd: 'rg -i -n budget ./src' }, out(1200))
    const r = await run(conversation([user('go'), a, b, c], '/repo'))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
    expect(detailOf(r.decisions[0])).toContain('budget (rg in /repo/src')
  })

  it('listings: ls and find of the same place, twice each', async () => {
    const a = exchange('bash', { command: 'ls -la src' }, out(1200))
    const b = exchange('bash', { command: 'ls -la src' }, out(1200))
    const r = await run(conversation([user('go'), a, b], '/repo'))
    expect(summary(r)).toEqual([`stub:superseded:${rid(a)}`])
  })

  it('opaque commands stay commands: denied by policy, keyed by the whole line', async () => {
    const a = exchange('exec_command', { cmd: 'ps -ef | rg chrome' }, out(1200))
    const b = exchange('exec_command', { cmd: 'ps -ef | rg chrome' }, out(1200))
    const r = await run(conversation([user('go'), a, b]))
    expect(changes(r)).toBe(0)
  })

  it('faithful (LIP) mode is unchanged: shell reads are command_execution, denied', async () => {
    const a = exchange('exec_command', { cmd: "sed -n '1,220p' x.ts" }, out(1200))
    const b = exchange('exec_command', { cmd: 'cat x.ts' }, out(1200))
    const r = await run(conversation([user('go'), a, b], '/repo'), FAITHFUL)
    expect(changes(r)).toBe(0)
  })
})

describe('supersede-stale-results: writes make earlier reads stale', () => {
  const PATCH = (path: string) =>
    `*** Begin Patch\n*** Update File: ${path}\n@@\n-a\n+b\n*** End Patch`
  const cases: [string, (path: string) => ReturnType<typeof exchange>][] = [
    [
      'Codex apply_patch (custom tool, raw patch)',
      (p) => exchange('apply_patch', PATCH(p), 'Done'),
    ],
    ['Codex apply_patch ({input})', (p) => exchange('apply_patch', { input: PATCH(p) }, 'Done')],
    [
      'Codex shell argv apply_patch',
      (p) => exchange('shell', { command: ['apply_patch', PATCH(p)] }, 'Done'),
    ],
    [
      'Codex exec_command heredoc apply_patch',
      (p) => exchange('exec_command', { cmd: `apply_patch <<'EOF'\n${PATCH(p)}\nEOF` }, 'Done'),
    ],
    [
      'Claude Code Edit',
      (p) => exchange('Edit', { file_path: p, old_string: 'a', new_string: 'b' }, 'ok'),
    ],
    ['Claude Code Write', (p) => exchange('Write', { file_path: p, content: 'b' }, 'ok')],
    ['Claude Code MultiEdit', (p) => exchange('MultiEdit', { file_path: p, edits: [] }, 'ok')],
    [
      'str_replace_editor',
      (p) =>
        exchange(
          'str_replace_editor',
          { command: 'str_replace', path: p, old_str: 'a', new_str: 'b' },
          'ok',
        ),
    ],
    [
      'opencode edit',
      (p) => exchange('edit', { filePath: p, oldString: 'a', newString: 'b' }, 'ok'),
    ],
    ['opencode write', (p) => exchange('write', { filePath: p, content: 'b' }, 'ok')],
    [
      'Gemini CLI replace',
      (p) => exchange('replace', { file_path: p, old_string: 'a', new_string: 'b' }, 'ok'),
    ],
    ['Gemini CLI write_file', (p) => exchange('write_file', { file_path: p, content: 'b' }, 'ok')],
    [
      'OpenHands str_replace_editor create',
      (p) => exchange('str_replace_editor', { command: 'create', path: p, file_text: 'b' }, 'ok'),
    ],
  ]

  it.each(cases)('%s outdates an earlier read of the file', async (_, write) => {
    const read = exchange('exec_command', { cmd: "sed -n '1,200p' src/x.ts" }, out(1200))
    const other = exchange('exec_command', { cmd: 'cat src/y.ts' }, out(1200))
    const w = write('/repo/src/x.ts')
    const r = await run(conversation([user('go'), read, other, w], '/repo'))
    expect(summary(r)).toEqual([`stub:superseded_by_write:${rid(read)}`])
    const callMessage = (w[0] as { id: string }).id
    expect(detailOf(r.decisions[0])).toContain(
      `the file /repo/src/x.ts was modified at message ${callMessage}`,
    )
    expect(r.resultText(rid(read))).toContain('was removed because the file was modified later')
  })

  it('a read after the write stays; the switch off and the faithful mode keep the read', async () => {
    const w = exchange('Edit', { file_path: '/repo/a.ts', old_string: 'a', new_string: 'b' }, 'ok')
    const read = exchange('Read', { file_path: '/repo/a.ts' }, out(1200))
    expect(changes(await run(conversation([user('go'), w, read])))).toBe(0)
    const before = exchange('Read', { file_path: '/repo/a.ts' }, out(1200))
    const conv = conversation([user('go'), before, w])
    expect(changes(await run(conv, { writesMakeStale: false }))).toBe(0)
    expect(changes(await run(conv, FAITHFUL))).toBe(0)
  })

  it('a command that read several files is kept when only one of them is written', async () => {
    const read = exchange(
      'exec_command',
      { cmd: "sed -n '1,80p' a.ts && sed -n '1,80p' b.ts" },
      out(1200),
    )
    const w = exchange('Edit', { file_path: '/repo/a.ts', old_string: 'a', new_string: 'b' }, 'ok')
    expect(changes(await run(conversation([user('go'), read, w], '/repo')))).toBe(0)
  })

  it('str_replace_editor view is not a write', async () => {
    const read = exchange('Read', { file_path: '/repo/a.ts' }, out(1200))
    const view = exchange('str_replace_editor', { command: 'view', path: '/repo/a.ts' }, out(10))
    expect(changes(await run(conversation([user('go'), read, view])))).toBe(0)
  })
})

describe('supersede-stale-results: Codex write_stdin continues its exec session', () => {
  const COMMANDS = { allowedCategories: ['command_execution'], deniedCategories: [] }
  const running = (id: number, body: string) =>
    `Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID ${id}\nOutput:\n${body}`

  it('a poll of the session is keyed to its command, not to an opaque write_stdin', async () => {
    const start = exchange(
      'exec_command',
      { cmd: 'npm test', workdir: '/repo' },
      running(7, out(1200)),
    )
    const poll = exchange(
      'write_stdin',
      { session_id: 7, chars: '', yield_time_ms: 1000 },
      out(1200),
    )
    const r = await run(conversation([user('go'), start, poll]), COMMANDS)
    expect(summary(r)).toEqual([`stub:superseded:${rid(start)}`])
    expect(detailOf(r.decisions[0])).toContain('npm test')
    expect(r.resultText(rid(start))).toContain('Previous output for npm test')
  })

  it('input written to the session is its own resource; another session stays apart', async () => {
    const a = exchange('exec_command', { cmd: 'python3' }, running(3, out(1200)))
    const b = exchange('exec_command', { cmd: 'npm test' }, running(4, out(1200)))
    const in1 = exchange('write_stdin', { session_id: 3, chars: 'print(1)\n' }, out(1200))
    const poll4 = exchange('write_stdin', { session_id: 4, chars: '' }, out(1200))
    const in2 = exchange('write_stdin', { session_id: 3, chars: 'print(1)\n' }, out(1200))
    const r = await run(conversation([user('go'), a, b, in1, poll4, in2], '/repo'), COMMANDS)
    // b is continued by poll4; in1 repeats as in2; the python session's start is kept.
    expect(summary(r).sort()).toEqual(
      [`stub:superseded:${rid(b)}`, `stub:superseded:${rid(in1)}`].sort(),
    )
    const detail = detailOf(r.decisions.find((d) => detailOf(d).includes('print(1)'))) ?? ''
    expect(detail).toContain('python3')
  })

  it('a session never opened in the transcript stays an opaque write_stdin', async () => {
    const p1 = exchange('write_stdin', { session_id: 9, chars: '' }, out(1200))
    const p2 = exchange('write_stdin', { session_id: 9, chars: '' }, out(1200))
    const start = exchange('exec_command', { cmd: 'npm test' }, out(1200))
    const r = await run(conversation([user('go'), p1, p2, start], '/repo'), COMMANDS)
    expect(summary(r)).not.toContain(`stub:superseded:${rid(start)}`)
  })

  it('by default (commands denied) a continued command is still not compacted', async () => {
    const start = exchange('exec_command', { cmd: 'npm test' }, running(7, out(1200)))
    const poll = exchange('write_stdin', { session_id: 7, chars: '' }, out(1200))
    const r = await run(conversation([user('go'), start, poll], '/repo'))
    expect(changes(r)).toBe(0)
    expect(r.decisions.some((d) => detailOf(d).includes('command_execution'))).toBe(true)
  })
})
