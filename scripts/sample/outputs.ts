/**
 * Command outputs for the fictional project (vitest runs, request logs, git, ls). Test names and
 * failure excerpts are read from the virtual files so output and code always agree.
 */
import type { Rng } from './prng.ts'
import type { Vfs } from './vfs.ts'
import { maxOf, pushAll } from '../../src/engine/arrays.ts'

export interface TestFailure {
  /** `suite > test` exactly as `Vfs.testNames` reports it. */
  readonly test: string
  readonly file: string
  /** Text on the failing source line; used to find the line for the code frame. */
  readonly needle: string
  readonly error: string
  readonly diff: readonly string[]
}

export interface VitestOptions {
  readonly files: readonly string[]
  readonly failures?: readonly TestFailure[]
  readonly verbose?: boolean
  /** Emit fastify request logs between tests (LOG_LEVEL=debug runs). */
  readonly logs?: boolean
  /** Epoch ms used for the "Start at" line and log timestamps. */
  readonly clock: number
  readonly command?: string
}

const RULE = '⎯'

function codeFrame(vfs: Vfs, file: string, test: string, needle: string): string {
  const lines = vfs.get(file).split('\n')
  // The needle may occur in several tests: search from the failing test's own `it(` line.
  const title = test.split(' > ').pop() ?? test
  const from = Math.max(
    0,
    lines.findIndex((l) => l.includes(`it('${title}'`)),
  )
  const at = Math.max(
    0,
    lines.findIndex((l, i) => i >= from && l.includes(needle)),
  )
  const col = (lines[at] ?? '').indexOf(needle) + 1
  const out = [` ❯ ${file}:${at + 1}:${col}`]
  for (let i = Math.max(0, at - 2); i <= Math.min(lines.length - 1, at + 2); i++) {
    out.push(`    ${String(i + 1).padStart(3)}| ${lines[i]}`)
    if (i === at) out.push(`       | ${' '.repeat(Math.max(0, col - 1))}^`)
  }
  return out.join('\n')
}

/** Fastify/pino JSON log lines for one request, as printed with LOG_LEVEL=debug. */
export function requestLog(
  rng: Rng,
  state: { time: number; req: number },
  method: string,
  url: string,
  status: number,
): string[] {
  state.req++
  const head = `{"level":30,"time":${state.time},"pid":48213,"hostname":"devbox","reqId":"req-${state.req.toString(36)}"`
  const incoming = `${head},"req":{"method":"${method}","url":"${url}","host":"localhost:80","remoteAddress":"127.0.0.1"},"msg":"incoming request"}`
  const rt = (0.2 + rng.next() * 1.6).toFixed(3)
  const done = `${head},"res":{"statusCode":${status}},"responseTime":${rt},"msg":"request completed"}`
  // inject() round trips cost a couple of milliseconds each, so log times advance accordingly.
  state.time += rng.int(1, 4)
  return [incoming, done]
}

// Which requests each test makes, so debug logs look like the test body.
function requestsFor(test: string): Array<[string, string, number]> {
  if (test.startsWith('stress')) {
    const reqs: Array<[string, string, number]> = []
    for (let i = 0; i < 500; i++) reqs.push(['POST', '/todos', 201])
    reqs.push(['GET', '/todos', 200])
    return reqs
  }
  const m = /^(GET|POST|PATCH|DELETE) (\S+)/.exec(test)
  const method = m?.[1] ?? 'GET'
  const url = (m?.[2] ?? '/health').replace(':id', '1')
  const status = /404|missing|nothing/.test(test)
    ? 404
    : /rejects|400|invalid/.test(test)
      ? 400
      : method === 'POST'
        ? 201
        : method === 'DELETE'
          ? 204
          : 200
  const needsTodo = method !== 'POST' && url !== '/health' && !/empty|rejects/.test(test)
  const setup: Array<[string, string, number]> = needsTodo ? [['POST', '/todos', 201]] : []
  return [...setup, [method, url, status]]
}

// Vitest omits a zero "passed" when something failed ("1 failed (1)").
function counts(failed: number, passed: number): string {
  if (!failed) return `${passed} passed`
  return passed ? `${failed} failed | ${passed} passed` : `${failed} failed`
}

export function vitestOutput(
  rng: Rng,
  vfs: Vfs,
  opts: VitestOptions,
): { stdout: string; exitCode: number; ms: number } {
  const failures = opts.failures ?? []
  const out: string[] = [
    '',
    `> todo-api@0.3.0 test`,
    `> ${opts.command ?? 'vitest run'}`,
    '',
    '',
    ` RUN  v2.1.5 ${vfs.root}`,
    '',
  ]
  const logState = { time: opts.clock, req: 0 }
  let passed = 0
  let failed = 0
  let filesFailed = 0
  let testsMs = 0
  for (const file of opts.files) {
    const names = vfs.testNames(file)
    const fileFails = failures.filter((f) => f.file === file)
    const rows: string[] = []
    let fileMs = 0
    for (const name of names) {
      const ms = name.startsWith('stress') ? rng.int(1_150, 1_450) : rng.int(1, 14)
      fileMs += ms
      const fail = fileFails.find((f) => f.test === name)
      if (opts.logs) {
        for (const [method, url, status] of requestsFor(name)) {
          pushAll(rows, requestLog(rng, logState, method, url, status))
        }
      }
      if (fail) {
        rows.push(`   × ${name} ${ms}ms`, `     → ${fail.error.replace(/^\w+Error: /, '')}`)
      } else if (opts.verbose) rows.push(`   ✓ ${name} ${ms}ms`)
    }
    testsMs += fileMs
    passed += names.length - fileFails.length
    failed += fileFails.length
    if (fileFails.length) filesFailed++
    const count = `${names.length} test${names.length === 1 ? '' : 's'}`
    out.push(
      fileFails.length
        ? ` ❯ ${file} (${count} | ${fileFails.length} failed) ${fileMs}ms`
        : ` ✓ ${file} (${count}) ${fileMs}ms`,
    )
    pushAll(out, rows)
  }
  if (failures.length) {
    out.push('', `${RULE.repeat(7)} Failed Tests ${failures.length} ${RULE.repeat(7)}`, '')
    failures.forEach((f, i) => {
      out.push(` FAIL  ${f.file} > ${f.test}`, f.error, '')
      pushAll(out, f.diff)
      out.push('', codeFrame(vfs, f.file, f.test, f.needle), '')
      out.push(`${RULE.repeat(24)}[${i + 1}/${failures.length}]${RULE}`, '')
    })
  }
  const total = passed + failed
  const nFiles = opts.files.length
  const start = new Date(opts.clock).toISOString().slice(11, 19)
  const collect = rng.int(250, 480)
  const duration = ((testsMs + collect + rng.int(200, 400)) / 1000).toFixed(2)
  out.push(
    '',
    ` Test Files  ${counts(filesFailed, nFiles - filesFailed)} (${nFiles})`,
    `      Tests  ${counts(failed, passed)} (${total})`,
    `   Start at  ${start}`,
    `   Duration  ${duration}s (transform ${rng.int(80, 160)}ms, setup 0ms, collect ${collect}ms, tests ${testsMs}ms, environment 0ms, prepare ${rng.int(90, 180)}ms)`,
    '',
  )
  return {
    stdout: out.join('\n'),
    exitCode: failed ? 1 : 0,
    ms: Math.round(Number(duration) * 1000) + 900,
  }
}

/** `git status` for the virtual tree; untracked directories collapse like git shows them. */
export function gitStatus(vfs: Vfs, branch: string): string {
  const { modified, untracked } = vfs.changes()
  const tracked = vfs.paths().filter((p) => !untracked.includes(p))
  const shown = new Set<string>()
  for (const path of untracked) {
    const parts = path.split('/')
    let entry = path
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/') + '/'
      if (!tracked.some((t) => t.startsWith(dir))) {
        entry = dir
        break
      }
    }
    shown.add(entry)
  }
  const out = [`On branch ${branch}`]
  if (modified.length) {
    out.push(
      'Changes not staged for commit:',
      '  (use "git add <file>..." to update what will be committed)',
    )
    out.push('  (use "git restore <file>..." to discard changes in working directory)')
    pushAll(
      out,
      modified.map((p) => `\tmodified:   ${p}`),
    )
    out.push('')
  }
  if (shown.size) {
    out.push('Untracked files:', '  (use "git add <file>..." to include in what will be committed)')
    pushAll(
      out,
      [...shown].map((p) => `\t${p}`),
    )
    out.push('')
  }
  if (!modified.length && !shown.size) out.push('nothing to commit, working tree clean')
  else out.push('no changes added to commit (use "git add" and/or "git commit -a")')
  return out.join('\n')
}

/** `git diff --stat`; with `untracked`, new files count too (as in a commit's stat). */
export function gitDiffStat(vfs: Vfs, untracked = false): string {
  const changes = vfs.changes()
  const paths = untracked ? [...changes.modified, ...changes.untracked].sort() : changes.modified
  const stats = paths.map((p) => ({ p, ...vfs.diffStat(p) }))
  const width = maxOf(stats.map((s) => s.p.length))
  const rows = stats.map(({ p, added, removed }) => {
    const n = added + removed
    return ` ${p.padEnd(width)} | ${String(n).padStart(3)} ${'+'.repeat(Math.min(added, 40))}${'-'.repeat(Math.min(removed, 20))}`
  })
  const ins = stats.reduce((n, s) => n + s.added, 0)
  const del = stats.reduce((n, s) => n + s.removed, 0)
  rows.push(` ${stats.length} files changed, ${ins} insertions(+), ${del} deletions(-)`)
  return rows.join('\n')
}

export function lsLong(vfs: Vfs, dir: string): string {
  const prefix = dir ? dir.replace(/\/$/, '') + '/' : ''
  const entries = new Map<string, number>()
  for (const p of vfs.paths()) {
    if (!p.startsWith(prefix)) continue
    const rest = p.slice(prefix.length)
    const name = rest.includes('/') ? rest.split('/')[0] + '/' : rest
    entries.set(name, (entries.get(name) ?? 0) + (rest.includes('/') ? 0 : vfs.get(p).length))
  }
  const rows = [
    `total ${entries.size * 8}`,
    'drwxr-xr-x  9 dev dev  4096 Mar 14 09:02 .',
    'drwxr-xr-x 14 dev dev  4096 Mar 11 17:40 ..',
  ]
  for (const [name, size] of [...entries].sort()) {
    const isDir = name.endsWith('/')
    const mode = isDir ? 'drwxr-xr-x  3' : '-rw-r--r--  1'
    rows.push(
      `${mode} dev dev ${String(isDir ? 4096 : size).padStart(5)} Mar 14 09:02 ${name.replace(/\/$/, '')}`,
    )
  }
  return rows.join('\n')
}
