// Labelled risk cases where removed content was not used later (see labelled.testing.ts).
import { ex, FIX, type LabelledCase } from './labelled-kit.testing.ts'

export const NEGATIVE_CASES: readonly LabelledCase[] = [
  {
    name: 'common words only: not evidence',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'cat notes.txt' },
        result: 'The configuration is invalid because the timeout is too small.',
      },
      { say: 'I will fix the configuration and raise the timeout.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a later user message still holds the identifier',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'a.py' },
        result: 'def merge_profiles(a, b): ...',
      },
      { user: 'Focus on merge_profiles please.' },
      { say: 'Changing merge_profiles now.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'the agent named the path in a kept message before the removed read',
    steps: [
      { user: 'Look at the routes.' },
      { say: 'I will start with src/app/routes.py.' },
      { call: 'read_file', args: { path: 'src/app/routes.py' }, result: 'routes = []' },
      { say: 'Next.' },
      { call: 'edit_file', args: { path: 'src/app/routes.py', new: 'x' }, result: 'ok' },
    ],
    removals: [ex(2)],
    used: [],
  },
  {
    name: 'used only before the removal point',
    steps: [
      FIX,
      { say: 'I suspect build_search_index.' },
      {
        call: 'read_file',
        args: { path: 'search.py' },
        result: 'def build_search_index(docs): ...',
      },
      { say: 'The file looks fine; the bug must be elsewhere.' },
    ],
    removals: [ex(1), ex(2)],
    used: [],
  },
  {
    name: 'standard library names are not evidence',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'log.js' },
        result: 'console.log(JSON.stringify(event))\nsetTimeout(flush, 10)',
      },
      { say: 'I will replace console.log with a logger and keep setTimeout.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'round numbers, years and powers of two are not evidence',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'curl -I localhost' },
        result: 'HTTP/1.1 200 OK\nDate: 2024\nContent-Length: 1024',
      },
      { say: 'It returns 200 with 1024 bytes, as in 2024.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a file every project has is not evidence',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'ls' }, result: 'package.json\nREADME.md\nnode_modules' },
      { say: 'Adding the script.' },
      {
        call: 'edit_file',
        args: { path: 'package.json', new: '"lint": "eslint ."' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'the stub itself keeps the path',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'cat src/db/pool.ts' }, result: 'export const pool = 1' },
      { say: 'Next.' },
      { call: 'read_file', args: { path: 'src/db/pool.ts' }, result: 'export const pool = 2' },
    ],
    removals: [{ step: 1, how: 'stub', text: '[COMPACTED] output of src/db/pool.ts superseded' }],
    used: [],
  },
  {
    name: 'a newer kept read holds the identifier',
    steps: [
      FIX,
      { call: 'read_file', args: { path: 'x.rs' }, result: 'fn flush_write_buffer() {}' },
      { say: 'Editing.' },
      {
        call: 'read_file',
        args: { path: 'x.rs' },
        result: 'fn flush_write_buffer() { /* new */ }',
      },
      { say: 'flush_write_buffer is fixed.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'the kept call still names the path when only the result is cleared',
    steps: [
      FIX,
      { call: 'read_file', args: { path: 'web/forms/signup.tsx' }, result: '<form/>' },
      { say: 'Next.' },
      { call: 'edit_file', args: { path: 'web/forms/signup.tsx', new: 'x' }, result: 'ok' },
    ],
    removals: [{ step: 1, how: 'stub', text: '[cleared]' }],
    used: [],
  },
  {
    name: 'the summary keeps the identifier',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'net/client.py' },
        result: 'def retry_with_jitter(fn): ...',
      },
      { say: 'I wrap the call in retry_with_jitter.' },
    ],
    removals: [
      { step: 1, how: 'summarise', text: 'Read net/client.py: it defines retry_with_jitter.' },
    ],
    used: [],
  },
  {
    name: 'a use by another agent thread does not count',
    steps: [
      FIX,
      { call: 'read_file', args: { path: 'k.py' }, result: 'def rotate_signing_keys(): ...' },
      { say: 'Delegating.', thread: 'agent-1' },
      { say: 'rotate_signing_keys needs a lock.', thread: 'agent-1' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a name from the tool definitions (always in context)',
    steps: [
      FIX,
      { call: 'search', args: { q: 'loader' }, result: 'truncated, raise max_results to see more' },
      { say: 'Searching again with a higher max_results.' },
    ],
    removals: [ex(1)],
    used: [],
    extra: {
      tools: [
        { name: 'search', raw: '{"name":"search","parameters":{"max_results":{"type":"number"}}}' },
      ],
    },
  },
  {
    name: 'a kept directory listing shows the file name',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'ls src/settings' }, result: 'loader.py\n__init__.py' },
      { call: 'bash', args: { command: 'cat src/settings/loader.py' }, result: 'def load(): ...' },
      { say: 'Editing.' },
      { call: 'edit_file', args: { path: 'src/settings/loader.py', new: 'x' }, result: 'ok' },
    ],
    removals: [ex(2)],
    used: [],
  },
  {
    name: 'a two-word quote is too short to be a phrase',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'cat x' }, result: "cat: x: 'not found'" },
      { say: 'The file was not found, creating it.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'ordinary hyphenated words and abbreviations',
    steps: [
      FIX,
      {
        call: 'web_search',
        args: { query: 'parsers' },
        result: 'A state-of-the-art, well-known parser, e.g. for YAML, i.e. a built-in one.',
      },
      { say: 'We want a well-known, state-of-the-art parser, e.g. a built-in one.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a kept assistant message quoted the error before the later use',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'make' },
        result: 'Error: undefined reference to symbol pthread_create_wrapper',
      },
      { say: 'Linking fails with "undefined reference to symbol pthread_create_wrapper".' },
      { say: 'Adding -lpthread fixes the undefined reference to symbol pthread_create_wrapper.' },
    ],
    removals: [ex(1)],
    // The first later use (step 2) is real: the agent quoted the removed error. Step 3 repeats
    // it, but by then the kept step 2 holds it — the check must credit step 2 only.
    used: [1],
    evidence: ['pthread_create_wrapper'],
  },
  {
    name: 'the kept trim still holds the identifier',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'q.ts' },
        result: 'export function scheduleFlush() {}\n' + '// filler\n'.repeat(30),
      },
      { say: 'scheduleFlush must debounce.' },
    ],
    removals: [
      { step: 1, how: 'trim', text: 'export function scheduleFlush() {}\n[… 30 lines trimmed]' },
    ],
    used: [],
  },
]
