/**
 * An endless, seeded stream of plausible agent turns (prompt → tool-using steps → reply) over the
 * synthetic code base. Format writers (Claude Code JSONL, OpenAI chat) consume the same stream.
 * Results are cached per (tool, arguments) — re-reading a file really returns identical text,
 * and it keeps 50 MB generation fast.
 */
import type { Rng } from './prng.ts'
import { PROJECT_ROOT, INITIAL_FILES } from './project-files.ts'
import type { StepSpec, ToolCall } from './session.ts'
import { NOUNS, syntheticFiles } from './synthetic-files.ts'
import {
  bashCall,
  editCall,
  globCall,
  grepCall,
  readCall,
  skillCall,
  TodoList,
  writeCall,
} from './tools.ts'
import { gitDiffStat, gitStatus, lsLong, requestLog, vitestOutput } from './outputs.ts'
import { Vfs } from './vfs.ts'
import {
  fill,
  GLOBS,
  GREPS,
  PROMPTS,
  REPLY_PARTS,
  SAYS,
  SMALL_GLOBS,
  SMALL_GREPS,
  THOUGHTS,
} from './synthetic-text.ts'
import { pushAll } from '../../src/engine/arrays.ts'

export type SynthEvent =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'step'; readonly spec: StepSpec }

export interface StreamOptions {
  /** Called before adding a ~200 KB output; lets writers keep small targets within tolerance. */
  readonly allowHuge: () => boolean
  /** Fewer, smaller results (for many-group transcripts). */
  readonly small?: boolean
}

export class SyntheticStream {
  readonly vfs: Vfs
  private readonly hot: string[]
  private readonly cache = new Map<string, ToolCall>()
  private readonly todos = new TodoList()
  // Files written this turn: untracked in `git status` until the next prompt clears them.
  private written: string[] = []
  private clock = Date.UTC(2026, 2, 20, 8, 0, 0)

  private readonly rng: Rng
  private readonly opts: StreamOptions

  constructor(rng: Rng, opts: StreamOptions) {
    this.rng = rng
    this.opts = opts
    const files = syntheticFiles(rng)
    const skill = INITIAL_FILES.find(([p]) => p.startsWith('.claude/')) as readonly [string, string]
    this.vfs = new Vfs(PROJECT_ROOT, [...files, skill])
    this.hot = files.map(([p]) => p)
  }

  private cached(key: string, make: () => ToolCall): ToolCall {
    let call = this.cache.get(key)
    if (!call) {
      call = make()
      this.cache.set(key, call)
    }
    return call
  }

  private hotPath(): string {
    return this.hot[this.rng.zipf(this.hot.length, 1.05)] as string
  }

  private read(): ToolCall {
    const path = this.hotPath()
    const total = this.vfs.read(path).totalLines
    if (this.opts.small || (total > 30 && this.rng.chance(0.45))) {
      const limit = this.opts.small ? this.rng.int(4, 10) : this.rng.int(15, 60)
      // Offsets snap to tens: agents re-request the same windows, so ranges repeat too.
      const offset = 1 + 10 * this.rng.int(0, Math.max(0, Math.floor((total - limit) / 10)))
      return this.cached(`R${path}:${offset}:${limit}`, () =>
        readCall(this.vfs, path, { offset, limit }),
      )
    }
    return this.cached(`R${path}`, () => readCall(this.vfs, path))
  }

  private bash(noun: string): ToolCall {
    const r = this.rng
    const kind = this.opts.small
      ? r.pick(['status', 'ls', 'log'])
      : r.pick(['test', 'test', 'status', 'diff', 'ls', 'log', 'curl', 'tsc'])
    if (kind === 'test') {
      const files = [
        `tests/${noun}.test.ts`,
        ...(r.chance(0.4) ? ['tests/todos.test.ts', 'tests/health.test.ts'] : []),
      ]
      const run = vitestOutput(r, this.vfs, {
        files,
        clock: this.clock,
        command: `vitest run ${files[0]}`,
      })
      return bashCall(`npm test -- ${files[0]}`, 'Run the affected tests', run.stdout, {
        ms: run.ms,
      })
    }
    if (kind === 'status' && this.opts.small)
      return bashCall('git status --short --branch', 'Short status', '## feat/' + noun)
    if (kind === 'status')
      return bashCall('git status', 'Show working tree status', gitStatus(this.vfs, 'feat/' + noun))
    if (kind === 'diff')
      return bashCall(
        'git diff --stat',
        'Summarise changes',
        gitDiffStat(this.vfs, true).slice(0, 4000),
      )
    if (kind === 'ls' && this.opts.small)
      return bashCall('ls src/middleware', 'List files', 'rateLimit.ts')
    if (kind === 'ls')
      return bashCall(
        'ls -la src/' + r.pick(['', 'services', 'routes']),
        'List files',
        lsLong(this.vfs, 'src/'),
      )
    if (kind === 'log') {
      const state = { time: this.clock, req: r.int(100, 5000) }
      const lines: string[] = []
      const n = this.opts.small ? r.int(2, 4) : r.int(10, 120)
      for (let i = 0; i < n; i++) {
        pushAll(
          lines,
          requestLog(
            r,
            state,
            r.pick(['GET', 'GET', 'POST', 'PATCH']),
            `/${noun}/${r.int(1, 400)}`,
            r.pick([200, 200, 200, 404, 500]),
          ),
        )
      }
      return bashCall(
        `tail -n ${lines.length} logs/app.log`,
        'Show recent server logs',
        lines.join('\n'),
      )
    }
    if (kind === 'curl') {
      const items = Array.from({ length: r.int(3, 40) }, (_, i) => ({
        id: i + 1,
        name: `${noun} ${r.base62(6)}`,
        status: r.pick(['active', 'archived', 'draft']),
        createdAt: new Date(this.clock - r.int(0, 9e9)).toISOString(),
      }))
      return bashCall(
        `curl -s localhost:3000/${noun}?limit=40 | jq .`,
        'Query the running server',
        JSON.stringify({ items, total: items.length }, null, 2),
      )
    }
    const errs = Array.from({ length: r.int(1, 6) }, () => {
      const p = this.hotPath()
      return `${p}(${r.int(1, 80)},${r.int(1, 40)}): error TS2322: Type 'string | undefined' is not assignable to type 'string'.`
    })
    return bashCall(
      'npx tsc --noEmit',
      'Type-check',
      errs.join('\n') + `\n\nFound ${errs.length} errors.`,
      { exitCode: 2 },
    )
  }

  private call(noun: string): ToolCall {
    const r = this.rng
    const x = r.next()
    if (x < 0.38) return this.read()
    if (x < 0.6) return this.bash(noun)
    if (x < 0.71) {
      const pattern = r.pick(this.opts.small ? SMALL_GREPS : GREPS)
      const path = r.pick(['src', 'tests', ''])
      const mode = this.opts.small
        ? 'files_with_matches'
        : r.pick(['content', 'files_with_matches'] as const)
      return this.cached(`G${pattern}:${path}:${mode}`, () =>
        grepCall(this.vfs, pattern, { path: path || undefined, mode }),
      )
    }
    if (x < 0.76) {
      const g = r.pick(this.opts.small ? SMALL_GLOBS : GLOBS)
      return this.cached(`L${g}`, () => globCall(this.vfs, g))
    }
    if (this.opts.small && x < 0.93) return this.read()
    if (x < 0.88 && !this.opts.small) {
      // Apply and revert: the edit result is realistic while later reads stay cacheable.
      const path = this.hotPath()
      const before = this.vfs.get(path)
      const lines = before.split('\n').filter((l) => l.trim().length > 12)
      const line = lines.length ? r.pick(lines) : (before.split('\n')[0] ?? '')
      const call = editCall(
        this.vfs,
        path,
        line,
        line.replace(/;$/, '') + (line.endsWith(';') ? ';' : '') + ' // reviewed',
      )
      this.vfs.write(path, before)
      return call
    }
    if (x < 0.91 && !this.opts.small) {
      const path = `src/generated/${noun}-${r.base62(5)}.ts`
      this.written.push(path)
      return writeCall(this.vfs, path, this.vfs.get(this.hotPath()))
    }
    if (x < 0.995 || this.opts.small) {
      const done = r.int(0, 3)
      return this.todos.call(
        ['Read the code', 'Make the change', 'Add tests', 'Run the suite'].map(
          (c, i) =>
            [
              c,
              i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
              c.replace(/^(\w+)/, '$1ing'),
            ] as const,
        ),
      )
    }
    return skillCall(this.vfs, 'api-docs')
  }

  /** A verbose debug test run (~200 KB), when the writer's budget allows it. */
  private huge(): ToolCall {
    const run = vitestOutput(this.rng, this.vfs, {
      files: ['tests/stress.test.ts', 'tests/todos.test.ts', 'tests/health.test.ts'],
      verbose: true,
      logs: true,
      clock: this.clock,
      command: 'vitest run --reporter=verbose',
    })
    return bashCall(
      'LOG_LEVEL=debug npm test -- --reporter=verbose',
      'Verbose test run with debug logs',
      run.stdout,
      { ms: run.ms },
    )
  }

  private step(noun: string): StepSpec {
    const r = this.rng
    if (!this.opts.small && r.chance(0.004) && this.opts.allowHuge())
      return { calls: [this.huge()] }
    const n = this.opts.small ? 1 : r.chance(0.18) ? r.int(2, 4) : 1
    const calls = Array.from({ length: n }, () => this.call(noun))
    const order = n > 1 && r.chance(0.3) ? [...calls.keys()].reverse() : undefined
    return {
      thinking: !this.opts.small && r.chance(0.25) ? fill(r, r.pick(THOUGHTS), noun) : undefined,
      text: !this.opts.small && r.chance(0.35) ? fill(r, r.pick(SAYS), noun) : undefined,
      calls,
      resultOrder: order,
    }
  }

  prompt(): SynthEvent & { kind: 'prompt' } {
    const noun = this.rng.pick(NOUNS)
    for (const path of this.written) this.vfs.remove(path)
    this.written = []
    this.clock += 600_000
    return { kind: 'prompt', text: fill(this.rng, this.rng.pick(PROMPTS), noun) }
  }

  /** One tool-using step about a random part of the code base. */
  nextStep(): SynthEvent & { kind: 'step' } {
    this.clock += 20_000
    return { kind: 'step', spec: this.step(this.rng.pick(NOUNS)) }
  }

  /** A turn-ending answer (no tool calls). */
  reply(): SynthEvent & { kind: 'step' } {
    const noun = this.rng.pick(NOUNS)
    const parts = Array.from({ length: this.rng.int(2, 5) }, () =>
      fill(this.rng, this.rng.pick(REPLY_PARTS), noun),
    )
    return { kind: 'step', spec: { text: parts.join(' '), calls: [] } }
  }
}
