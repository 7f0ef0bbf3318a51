import { describe, expect, it } from 'vitest'
import { commandText, covers, FULL, parseShellCommand, tokenize, type LineRange } from './shell.ts'

const CWD = '/repo'
const parse = (line: string, cwd: string | undefined = CWD) => parseShellCommand(line, cwd)
const file = (path: string, range: LineRange = FULL) => [{ kind: 'file', path, range }]
const lines = (start: number, end: number | null): LineRange => ({ kind: 'lines', start, end })

describe('shell reads: file forms', () => {
  it.each([
    ['cat src/a.ts', file('/repo/src/a.ts')],
    ['cat -n src/a.ts', file('/repo/src/a.ts')],
    ['less /etc/hosts', file('/etc/hosts')],
    ["sed -n '1,240p' src/x.ts", file('/repo/src/x.ts', lines(1, 240))],
    ['sed -n 40,180p src/x.ts', file('/repo/src/x.ts', lines(40, 180))],
    ["sed -n '12p' src/x.ts", file('/repo/src/x.ts', lines(12, 12))],
    ["sed -n '100,$p' src/x.ts", file('/repo/src/x.ts', lines(100, null))],
    ['nl -ba src/x.ts', file('/repo/src/x.ts')],
    ['head -n 50 src/x.ts', file('/repo/src/x.ts', lines(1, 50))],
    ['head -20 src/x.ts', file('/repo/src/x.ts', lines(1, 20))],
    ['head src/x.ts', file('/repo/src/x.ts', lines(1, 10))],
    ['tail -n 30 log.txt', file('/repo/log.txt', { kind: 'tail', count: 30 })],
  ])('%s', (line, expected) => {
    expect(parse(line)).toEqual(expected)
  })

  it('quoted paths and backslash-escaped spaces name the same file', () => {
    const want = file('/repo/My Docs/a b.md', lines(1, 20))
    expect(parse(`sed -n '1,20p' 'My Docs/a b.md'`)).toEqual(want)
    expect(parse(`sed -n '1,20p' "My Docs/a b.md"`)).toEqual(want)
    expect(parse(`sed -n '1,20p' My\\ Docs/a\\ b.md`)).toEqual(want)
  })

  it('pipelines narrow the range: nl | sed, cat | head, sed | head', () => {
    expect(parse("nl -ba src/x.ts | sed -n '40,80p'")).toEqual(
      file('/repo/src/x.ts', lines(40, 80)),
    )
    expect(parse('cat src/x.ts | head -n 25')).toEqual(file('/repo/src/x.ts', lines(1, 25)))
    // Line 1 of the stream is line 100 of the file.
    expect(parse("sed -n '100,300p' src/x.ts | head -n 50")).toEqual(
      file('/repo/src/x.ts', lines(100, 149)),
    )
    expect(parse("sed -n '1,500p' src/x.ts | nl -ba")).toEqual(
      file('/repo/src/x.ts', lines(1, 500)),
    )
  })

  it('cd dir && cat x resolves x under dir; chains with ; and echo', () => {
    expect(parse('cd packages/core && cat src/a.ts')).toEqual(file('/repo/packages/core/src/a.ts'))
    expect(parse('cd /tmp; cat ../etc/hosts')).toEqual(file('/etc/hosts'))
    expect(parseShellCommand('cd packages/core && cat src/a.ts')).toEqual(
      file('packages/core/src/a.ts'),
    )
    expect(parse('echo "--- a"; cat a.ts; echo done')).toEqual(file('/repo/a.ts'))
  })

  it('several reads in one command are all listed', () => {
    expect(parse("sed -n '1,20p' a.ts && sed -n '1,20p' b.ts")).toEqual([
      ...file('/repo/a.ts', lines(1, 20)),
      ...file('/repo/b.ts', lines(1, 20)),
    ])
  })

  it('bash -lc wrappers and argv arrays unwrap to their script', () => {
    expect(commandText(['bash', '-lc', "sed -n '1,5p' a.ts"])).toBe("sed -n '1,5p' a.ts")
    expect(parse(commandText(['cat', 'my file.ts']) as string)).toEqual(file('/repo/my file.ts'))
    expect(parse(`bash -lc "cat a.ts"`)).toEqual(file('/repo/a.ts'))
    expect(parse('cat a.ts 2>/dev/null')).toEqual(file('/repo/a.ts'))
  })
})

describe('shell reads: searches, listings, git', () => {
  it('rg/grep: pattern + resolved paths + options', () => {
    expect(parse('rg -n "foo|bar" src')).toEqual([
      { kind: 'search', program: 'rg', pattern: 'foo|bar', paths: ['/repo/src'], options: ['-n'] },
    ])
    expect(parse("grep -rn -e 'TODO' --include '*.ts' .")).toEqual([
      {
        kind: 'search',
        program: 'grep',
        pattern: 'TODO',
        paths: ['/repo'],
        options: ['--include *.ts', '-rn'],
      },
    ])
    // Option order does not change what is printed: the key sorts options.
    expect(parse('rg -i -n foo src')).toEqual(parse('rg -n -i foo src'))
    // A trailing head is kept as part of the key: the output differs.
    expect(parse('rg -n foo src | head -n 20')).toEqual([
      {
        kind: 'search',
        program: 'rg',
        pattern: 'foo',
        paths: ['/repo/src'],
        options: ['-n', '| head -n 20'],
      },
    ])
  })

  it('ls/find/tree/rg --files are listings', () => {
    expect(parse('ls -la src')).toEqual([
      { kind: 'listing', program: 'ls', paths: ['/repo/src'], options: ['-la'] },
    ])
    expect(parse("find src -name '*.ts' -type f")).toEqual([
      {
        kind: 'listing',
        program: 'find',
        paths: ['/repo/src'],
        options: ['-name', '*.ts', '-type', 'f'],
      },
    ])
    expect(parse('tree -L 2')).toEqual([
      { kind: 'listing', program: 'tree', paths: ['/repo'], options: ['-L 2'] },
    ])
    expect(parse('rg --files src')?.[0]?.kind).toBe('listing')
  })

  it('git show/diff/log keep their words and directory; paths after -- resolve', () => {
    expect(parse('git diff -- src/a.ts')).toEqual([
      { kind: 'git', sub: 'diff', args: ['--', '/repo/src/a.ts'], cwd: '/repo' },
    ])
    expect(parse('git -C sub log --oneline -5')).toEqual([
      { kind: 'git', sub: 'log', args: ['--oneline', '-5'], cwd: '/repo/sub' },
    ])
  })
})

describe('shell reads: anything not understood stays opaque', () => {
  it.each([
    'npm test',
    'git status',
    'git commit -m x',
    'cat a.ts > b.ts',
    'cat < a.ts',
    'sed -i s/a/b/ a.ts',
    "sed -n '/foo/p' a.ts",
    'cat $HOME/a.ts',
    'cat "$F"',
    'cat `which x`',
    'cat $(ls)',
    'cat *.ts',
    'cat ~/a.ts',
    'cat a.ts b.ts',
    'cat a.ts | grep foo',
    'cat a.ts | tail -n 5',
    'find . -name x -delete',
    'find . -exec rm {} ;',
    'tree -o out.txt',
    'sleep 1 &',
    "cat 'unterminated",
    'cd - && cat a',
    'wc -l a.ts',
    'ps -ef | rg chrome',
    "apply_patch <<'EOF'",
  ])('%s', (line) => {
    expect(parse(line)).toBeNull()
  })

  it('the tokenizer refuses expansions inside double quotes but not inside single ones', () => {
    expect(tokenize('echo "$X"')).toBeNull()
    expect(tokenize("echo '$X'")).toEqual([{ word: 'echo' }, { word: '$X' }])
  })
})

describe('ranges: covering reads', () => {
  it('a full read covers every range; a wider range covers a narrower one; others never', () => {
    expect(covers(FULL, lines(40, 180))).toBe(true)
    expect(covers(FULL, { kind: 'tail', count: 5 })).toBe(true)
    expect(covers(lines(1, 300), lines(40, 180))).toBe(true)
    expect(covers(lines(30, null), lines(40, 180))).toBe(true)
    expect(covers(lines(40, 180), lines(1, 300))).toBe(false)
    expect(covers(lines(180, 520), lines(40, 180))).toBe(false)
    expect(covers(lines(1, 100), { kind: 'tail', count: 5 })).toBe(false)
  })
})
