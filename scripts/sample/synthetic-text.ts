/** Templates for the synthetic stream's prompts, thoughts and replies, and its search terms. */
import type { Rng } from './prng.ts'

export const PROMPTS = [
  'Add pagination to the {noun} list endpoint, same conventions as /todos.',
  'tests/{noun}.test.ts fails intermittently on CI. Can you find out why?',
  'Refactor the {noun} routes to use the shared validation helper.',
  'Check the logs for errors coming from the {noun} endpoints.',
  'Write tests for {T}Service — it has almost no coverage.',
  'How are {noun} stored? Walk me through the data flow from route to SQLite.',
  'Rename {T}Service.count{N} to total{N} everywhere.',
  'The {noun} endpoint returns 500 when the id is not a number. Fix it and add a test.',
  'Run the whole suite and summarise anything slow or flaky.',
  'Make the {noun} list sortable by createdAt, newest first by default.',
]
export const THOUGHTS = [
  'Before changing anything I should see how {noun} are wired from the route to the service.',
  'The error points at the service, but the route does the id parsing; check both.',
  'There are several call sites; grep for them first so the rename is complete.',
  'The tests use an in-memory database, so ordering issues would come from the query, not I/O.',
  'Reading the whole file is cheap here and avoids missing a second definition further down.',
  'This looks like the same pattern as the todos module; follow its conventions.',
]
export const SAYS = [
  'Let me look at the {noun} service first.',
  'Checking the route handlers for {noun}:',
  'Now the tests:',
  'Running the affected tests.',
  'Searching for other call sites.',
  'That confirms it. Applying the change.',
]
export const REPLY_PARTS = [
  'The {noun} routes now follow the same conventions as /todos.',
  'I ran the affected tests and they pass.',
  'The failure came from relying on insertion order without an ORDER BY.',
  'I left the public response shape unchanged, so clients are unaffected.',
  'One thing to watch: the service still swallows database errors in two places.',
  'Coverage for {T}Service went from two tests to {k}.',
]
export const GREPS = [
  'NotFoundError',
  'reply\\.code\\(',
  'ORDER BY',
  'export class \\w+Service',
  'createdAt',
  'TODO|FIXME',
  'prepare\\(',
  'import .* from',
  'describe\\(',
]
// Narrow searches for many-group transcripts, where each result should stay small.
export const SMALL_GREPS = [
  'TITLE_MAX',
  'retry-after',
  'seedDemoData',
  'journal_mode',
  'loadConfig',
  'invalid_limit',
]
export const SMALL_GLOBS = ['src/*.ts', 'docs/**/*.md', 'tests/h*.ts', 'src/middleware/*.ts']
export const GLOBS = [
  '**/*.test.ts',
  'src/services/*.ts',
  'src/routes/*.ts',
  'src/**/*.ts',
  'docs/**/*.md',
]

const filled = new Map<string, string>()

export function fill(rng: Rng, template: string, noun: string): string {
  // Most templates only depend on the noun: memoise them, they are filled thousands of times.
  if (template.includes('{k}')) return fillNow(rng, template, noun)
  const key = template + '\u0000' + noun
  let text = filled.get(key)
  if (text === undefined) {
    text = fillNow(rng, template, noun)
    filled.set(key, text)
  }
  return text
}

function fillNow(rng: Rng, template: string, noun: string): string {
  const T = noun.replace(/s$/, '').replace(/^./, (c) => c.toUpperCase())
  return (
    template
      .replaceAll('{noun}', noun)
      .replaceAll('{T}', T)
      .replaceAll('{N}', noun[0]?.toUpperCase() + noun.slice(1))
      // Draw only when used: memoised templates must not change how much randomness is consumed.
      .replace('{k}', () => String(rng.int(5, 12)))
  )
}
