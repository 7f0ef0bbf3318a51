/** Shared helpers for the scripted turns of the sample session. */
import type { Rng } from './prng.ts'
import type { ClaudeSession, ToolCall } from './session.ts'
import type { Vfs } from './vfs.ts'
import { bashCall, editCall, jitter, readCall, type TodoList } from './tools.ts'
import { vitestOutput, type TestFailure } from './outputs.ts'

export interface Ctx {
  readonly s: ClaudeSession
  readonly vfs: Vfs
  readonly rng: Rng
  readonly todos: TodoList
}

/** An edit the script expects to apply; fails generation loudly if the text drifted. */
export function edit(ctx: Ctx, path: string, oldStr: string, newStr: string): ToolCall {
  const call = editCall(ctx.vfs, path, oldStr, newStr)
  if (call.outcome.isError) throw new Error(`scenario edit did not apply to ${path}:\n${oldStr}`)
  return call
}

/** A Read of the lines around `needle`, the way an agent narrows in on a function. */
export function readAround(
  ctx: Ctx,
  path: string,
  needle: string,
  before: number,
  limit: number,
): ToolCall {
  const line = ctx.vfs.lineOf(path, needle)
  if (line === 0) throw new Error(`scenario: ${needle} not in ${path}`)
  return readCall(ctx.vfs, path, { offset: Math.max(1, line - before), limit })
}

export interface TestRunOptions {
  readonly only?: readonly string[]
  readonly failures?: readonly TestFailure[]
  readonly verbose?: boolean
  readonly logs?: boolean
  readonly command?: string
  readonly args?: string
}

/** `npm test` over the virtual tests, with names and code frames read from the files. */
export function npmTest(ctx: Ctx, opts: TestRunOptions = {}): ToolCall {
  const files = opts.only ?? ctx.vfs.glob('tests/*.test.ts')
  const run = vitestOutput(ctx.rng, ctx.vfs, {
    files,
    failures: opts.failures,
    verbose: opts.verbose,
    logs: opts.logs,
    clock: ctx.s.now(),
    command: 'vitest run' + (opts.args ? ' ' + opts.args : ''),
  })
  const command = opts.command ?? 'npm test' + (opts.args ? ' -- ' + opts.args : '')
  const description = opts.only ? 'Run ' + opts.only.join(', ') : 'Run the test suite'
  return bashCall(command, description, run.stdout, {
    exitCode: run.exitCode,
    ms: jitter(ctx.rng, run.ms),
  })
}

// Files an agent keeps coming back to, hottest first: Zipf draws over this list give the
// "same few files read again and again" pattern seen in real sessions.
export const HOT_FILES = [
  'src/routes/todos.ts',
  'src/db.ts',
  'tests/todos.test.ts',
  'src/types.ts',
  'src/app.ts',
  'src/server.ts',
  'tests/helpers.ts',
  'src/config.ts',
  'package.json',
] as const

/** One re-orientation read: a hot file, sometimes whole, sometimes a window of it. */
export function revisit(ctx: Ctx): ToolCall {
  const path = HOT_FILES[ctx.rng.zipf(HOT_FILES.length)] as string
  const total = ctx.vfs.read(path).totalLines
  if (total < 30 || ctx.rng.chance(0.5)) return readCall(ctx.vfs, path)
  const limit = ctx.rng.int(15, 40)
  return readCall(ctx.vfs, path, { offset: ctx.rng.int(1, Math.max(1, total - limit)), limit })
}

/** Total tests across the virtual test files (for replies that quote the count). */
export function testCount(ctx: Ctx): number {
  return ctx.vfs.glob('tests/*.test.ts').reduce((n, f) => n + ctx.vfs.testNames(f).length, 0)
}

type Status = 'pending' | 'in_progress' | 'completed'
/** A todo list where the first `done` items are finished and the next one is in progress. */
export function planAt(
  items: ReadonlyArray<readonly [string, string]>,
  done: number,
): Array<[string, Status, string]> {
  return items.map(([c, a], i) => [
    c,
    i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
    a,
  ])
}
