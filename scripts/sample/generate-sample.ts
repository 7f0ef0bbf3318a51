/**
 * Generates the bundled demo transcript: a realistic Claude Code session (JSONL) in which an agent
 * works on a fictional `todo-api` project. Deterministic — same seed, same bytes — so the committed
 * sample can be regenerated and diffed:
 *
 *   node bin/run-ts.mjs scripts/sample/generate-sample.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Rng } from './prng.ts'
import { INITIAL_FILES, PROJECT_ROOT } from './project-files.ts'
import { ClaudeSession, type SessionStats } from './session.ts'
import { TodoList } from './tools.ts'
import { Vfs } from './vfs.ts'
import type { Ctx } from './scenario-kit.ts'
import { turnBooleanFix, turnCostCommand, turnOrientation, turnVerboseRun } from './scenario-1.ts'
import { turnApiDocs, turnValidation } from './scenario-2.ts'
import { turnDueDate } from './scenario-duedate.ts'
import { turnPagination } from './scenario-pagination.ts'
import { turnRateLimit, turnSlowStartup } from './scenario-3.ts'
import { turnAmend, turnCommit, turnLint, turnReadme } from './scenario-4.ts'

export const SAMPLE_SEED = 20260314
/** Fixed start time: output must never depend on when it was generated. */
export const SAMPLE_BASE_TIME = Date.UTC(2026, 2, 14, 9, 2, 17, 412)
export const SAMPLE_TITLE = 'Todo API: pagination, validation, due dates and rate limiting'

export interface SampleResult {
  readonly jsonl: string
  readonly stats: SessionStats
}

/** Fresh session + project for a seed (the large generators reuse it). */
export function newContext(seed: number, baseTime = SAMPLE_BASE_TIME): Ctx {
  const rng = new Rng(seed)
  const s = new ClaudeSession(rng, {
    sessionId: rng.uuid(),
    cwd: PROJECT_ROOT,
    version: '2.0.42',
    gitBranch: 'main',
    model: 'claude-sonnet-4-5-20250929',
    baseTime,
  })
  return { s, rng, vfs: new Vfs(PROJECT_ROOT, INITIAL_FILES), todos: new TodoList() }
}

export function generateSample(seed = SAMPLE_SEED): SampleResult {
  const ctx = newContext(seed)
  turnOrientation(ctx)
  turnBooleanFix(ctx)
  turnPagination(ctx)
  turnCostCommand(ctx)
  turnVerboseRun(ctx)
  turnApiDocs(ctx)
  turnValidation(ctx)
  turnDueDate(ctx)
  turnSlowStartup(ctx)
  turnRateLimit(ctx)
  turnLint(ctx)
  turnCommit(ctx)
  turnReadme(ctx)
  turnAmend(ctx)
  return { jsonl: ctx.s.finish(SAMPLE_TITLE), stats: ctx.s.stats }
}

export const SAMPLE_INDEX = [
  {
    id: 'coding-session',
    file: 'coding-session.jsonl',
    title: 'Coding session: todo-api (Claude Code)',
    description:
      'A synthetic Claude Code session: 13 prompts on a small Fastify + SQLite service — bug fix, ' +
      'pagination, validation, due dates, rate limiting, docs via a skill, commits. Repeated file ' +
      'reads, parallel tool calls, thinking blocks, one ~190 KB verbose test log, tool errors.',
    format: 'claude-code',
  },
]

function main(): void {
  const started = performance.now()
  const { jsonl, stats } = generateSample()
  const dir = fileURLToPath(new URL('../../public/samples/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  writeFileSync(dir + 'coding-session.jsonl', jsonl)
  writeFileSync(dir + 'index.json', JSON.stringify(SAMPLE_INDEX, null, 2) + '\n')
  const ms = Math.round(performance.now() - started)
  console.log(`wrote ${dir}coding-session.jsonl: ${Buffer.byteLength(jsonl)} bytes in ${ms} ms`)
  console.log(JSON.stringify(stats, null, 2))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
