/**
 * Big synthetic transcripts for the benchmark and for browser tests, built from the same content
 * generators as the sample (file reads with Zipf-like repetition, code, JSON, logs, prose).
 * Lines/messages are collected in arrays and joined once, so 50 MB takes about a second.
 *
 *   node bin/run-ts.mjs scripts/sample/generate-large.ts --out big.jsonl --bytes 50000000 --format claude-code
 *   node bin/run-ts.mjs scripts/sample/generate-large.ts --out big.json --format openai-chat
 *   node bin/run-ts.mjs scripts/sample/generate-large.ts --out groups.jsonl --groups 10000
 *
 * No static Node imports: the generator functions also run in a browser or a worker.
 */
import { Rng } from './prng.ts'
import { PROJECT_ROOT } from './project-files.ts'
import { ClaudeSession, utf8Length } from './session.ts'
import { SyntheticStream } from './synthetic.ts'

const HUGE_HEADROOM = 2_000_000

function newSession(rng: Rng, baseTime: number): ClaudeSession {
  return new ClaudeSession(rng, {
    sessionId: rng.uuid(),
    cwd: PROJECT_ROOT,
    version: '2.0.42',
    gitBranch: 'main',
    model: 'claude-sonnet-4-5-20250929',
    baseTime,
  })
}

/**
 * A Claude Code session JSONL of about `targetBytes` (UTF-8), within a few percent: generation
 * stops at the first step that reaches the target, and a ~200 KB output is only added while at
 * least 2 MB of budget remain.
 */
export function generateLargeClaudeCode(targetBytes: number, seed: number): string {
  const rng = new Rng(seed)
  const s = newSession(rng, Date.UTC(2026, 2, 20, 8, 0, 0))
  const stream = new SyntheticStream(rng, {
    allowHuge: () => targetBytes - s.bytes() > HUGE_HEADROOM,
  })
  while (s.bytes() < targetBytes) {
    s.prompt(stream.prompt().text)
    const steps = rng.int(4, 16)
    for (let i = 0; i < steps && s.bytes() < targetBytes; i++) s.step(stream.nextStep().spec)
    s.step(stream.reply().spec)
  }
  return s.finish('Synthetic long session (generated)')
}

/**
 * `groups` small tool-call groups — one assistant tool_use line and one user tool_result line
 * each — with a user prompt before every 20th group. For UI tests that need many groups.
 */
export function generateManyGroupsClaudeCode(groups: number, seed: number): string {
  const rng = new Rng(seed)
  const s = newSession(rng, Date.UTC(2026, 2, 21, 8, 0, 0))
  const stream = new SyntheticStream(rng, { allowHuge: () => false, small: true })
  for (let g = 0; g < groups; g++) {
    if (g % 20 === 0) s.prompt(stream.prompt().text)
    s.step(stream.nextStep().spec)
  }
  return s.finish(`Synthetic session with ${groups} tool-call groups (generated)`)
}

const OPENAI_SYSTEM =
  'You are a coding agent working in the todo-api repository. Use the tools to read, search and ' +
  'edit files and to run commands. Keep answers short and say what you changed.'

const str = { type: 'string' }
const int = { type: 'integer' }
const fn = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[],
): unknown => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: { type: 'object', properties, required, additionalProperties: false },
  },
})

/** The tool definitions the OpenAI transcript declares (names match the calls it contains). */
export const OPENAI_TOOLS = [
  fn('Read', 'Read a file, optionally a line range.', { file_path: str, offset: int, limit: int }, [
    'file_path',
  ]),
  fn('Bash', 'Run a shell command.', { command: str, description: str }, ['command']),
  fn(
    'Grep',
    'Search file contents with a regex.',
    { pattern: str, path: str, glob: str, output_mode: str, '-n': { type: 'boolean' } },
    ['pattern'],
  ),
  fn('Glob', 'Find files by glob pattern.', { pattern: str, path: str }, ['pattern']),
  fn('Edit', 'Replace a string in a file.', { file_path: str, old_string: str, new_string: str }, [
    'file_path',
    'old_string',
    'new_string',
  ]),
  fn('Write', 'Write a whole file.', { file_path: str, content: str }, ['file_path', 'content']),
  fn(
    'TodoWrite',
    'Replace the task list.',
    { todos: { type: 'array', items: { type: 'object' } } },
    ['todos'],
  ),
  fn('Skill', 'Load a skill by name.', { skill: str }, ['skill']),
]

/** An OpenAI Chat Completions request body `{model, messages, tools}` of about `targetBytes`. */
export function generateLargeOpenAIChat(targetBytes: number, seed: number): string {
  const rng = new Rng(seed)
  const parts: string[] = []
  let bytes = 0
  const add = (message: Record<string, unknown>): void => {
    const json = JSON.stringify(message)
    parts.push(json)
    bytes += utf8Length(json) + 1
  }
  const stream = new SyntheticStream(rng, { allowHuge: () => targetBytes - bytes > HUGE_HEADROOM })
  add({ role: 'system', content: OPENAI_SYSTEM })
  while (bytes < targetBytes) {
    add({ role: 'user', content: stream.prompt().text })
    const steps = rng.int(4, 16)
    for (let i = 0; i < steps && bytes < targetBytes; i++) {
      const spec = stream.nextStep().spec
      const ids = spec.calls.map(() => `call_${rng.base62(24)}`)
      add({
        role: 'assistant',
        content: spec.text ?? null,
        tool_calls: spec.calls.map((c, j) => ({
          id: ids[j],
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        })),
      })
      for (const j of spec.resultOrder ?? spec.calls.map((_, k) => k)) {
        add({ role: 'tool', tool_call_id: ids[j], content: spec.calls[j]?.outcome.content ?? '' })
      }
    }
    add({ role: 'assistant', content: stream.reply().spec.text ?? '' })
  }
  return `{"model":"gpt-4.1","messages":[\n${parts.join(',\n')}\n],"tools":${JSON.stringify(OPENAI_TOOLS)}}\n`
}

function parseBytes(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(kb|mb|gb)?$/i.exec(v.trim())
  if (!m) throw new Error(`--bytes: expected a number like 50000000 or 50MB, got ${v}`)
  const unit = { kb: 1e3, mb: 1e6, gb: 1e9 }[(m[2] ?? '').toLowerCase() as 'kb' | 'mb' | 'gb'] ?? 1
  return Math.round(Number(m[1]) * unit)
}

async function main(argv: readonly string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const out = arg('--out')
  if (!out)
    throw new Error(
      'usage: generate-large.ts --out FILE [--bytes N] [--format claude-code|openai-chat] [--groups N] [--seed N]',
    )
  const seed = Number(arg('--seed') ?? 1)
  const format = arg('--format') ?? 'claude-code'
  const groups = arg('--groups')
  const target = parseBytes(arg('--bytes') ?? '50000000')
  const started = performance.now()
  let text: string
  if (groups) text = generateManyGroupsClaudeCode(Number(groups), seed)
  else if (format === 'claude-code') text = generateLargeClaudeCode(target, seed)
  else if (format === 'openai-chat') text = generateLargeOpenAIChat(target, seed)
  else throw new Error(`--format: expected claude-code or openai-chat, got ${format}`)
  const ms = Math.round(performance.now() - started)
  const { writeFileSync } = await import('node:fs')
  writeFileSync(out, text)
  console.log(
    `wrote ${out}: ${utf8Length(text)} bytes (${groups ? `${groups} groups` : format}) in ${ms} ms`,
  )
}

const entry = typeof process === 'undefined' ? undefined : process.argv[1]
if (entry && import.meta.url.endsWith(entry.replaceAll('\\', '/'))) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
