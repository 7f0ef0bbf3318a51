/**
 * Hand-labelled risk cases (test-only). Each case is a short agent transcript, the groups a
 * config removes from it, and — for each removed group — whether the agent *really* used that
 * content later (judged by reading the transcript as a person would, not by running the check).
 * Some cases are labelled the way the detector is known to get wrong (a paraphrase, a plain
 * word, a natural name the agent would invent anyway): the measured precision and recall are
 * honest figures, not 1.0 by construction.
 */
import type { Removal, Step } from './builder.testing.ts'
import type { Conversation } from '../model.ts'

export interface LabelledCase {
  readonly name: string
  readonly steps: readonly Step[]
  readonly removals: readonly Removal[]
  /** Steps (of the removed ones) whose content the agent used later; the rest were not used. */
  readonly used: readonly number[]
  /** Strings expected among the evidence of the used groups. */
  readonly evidence?: readonly string[]
  /** The same per used step, when a case has several. */
  readonly evidenceByStep?: Readonly<Record<number, readonly string[]>>
  readonly extra?: Partial<Conversation>
}

const ex = (step: number): Removal => ({ step, how: 'exclude' })
const FIX = { user: 'The config loader crashes on empty files, please fix it.' }

export const LABELLED_CASES: readonly LabelledCase[] = [
  // ——— positives ———
  {
    name: 'a path from a removed grep is quoted in a later tool call',
    steps: [
      FIX,
      {
        call: 'grep',
        args: { pattern: 'def parse_config' },
        result: 'src/settings/loader.py:212:def parse_config(path):',
      },
      { say: 'Found it.' },
      { call: 'read_file', args: { path: 'src/settings/loader.py' }, result: '...' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['src/settings/loader.py'],
  },
  {
    name: 'a snake_case function from a removed file read is named later',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'app/http.py' },
        result: 'def normalize_headers(raw):\n    return {k: v for k, v in raw.items()}',
      },
      { user: 'ok go on' },
      { say: 'I will make normalize_headers lower-case every key.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['normalize_headers'],
  },
  {
    name: 'a line number from a removed traceback',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'python -m app' },
        result:
          'Traceback (most recent call last):\n  File "app/config.py", line 212, in load\nKeyError: section',
      },
      { say: 'The crash comes from line 212, where the section is read without a default.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['line 212'],
  },
  {
    name: 'a camelCase function quoted in a later edit',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'lib/retry.ts' },
        result: 'export function computeBackoffDelay(attempt: number) {\n  return 2 ** attempt\n}',
      },
      { say: 'Reading done.' },
      {
        call: 'edit_file',
        args: { path: 'lib/retry.ts', old: 'computeBackoffDelay(attempt: number)', new: '…' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['computeBackoffDelay'],
  },
  {
    name: 'an error message from a removed log is quoted later',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'tail logs/gateway.log' },
        result:
          '2025-01-04 10:22:01 Error: connection refused by upstream proxy\n2025-01-04 10:22:02 retrying',
      },
      { say: 'The log says "connection refused by upstream proxy", so the proxy is down.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['connection refused by upstream proxy'],
  },
  {
    name: 'a latency with a unit from a removed benchmark',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'npm run bench' },
        result: 'requests: 5000\np50 latency: 41ms\np95 latency: 184ms',
      },
      { user: 'is that fast enough?' },
      { say: 'The p95 of 184ms is above our budget.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['184ms'],
  },
  {
    name: 'a commit hash from a removed git log is reverted later',
    steps: [
      { user: 'Something broke the scheduler last week, find it.' },
      {
        call: 'bash',
        args: { command: 'git log --oneline -3' },
        result: 'a91f3c2 fix race in scheduler\n77b0e41 bump deps\n3c2d9e8 docs',
      },
      { say: 'Reverting the scheduler change.' },
      { call: 'bash', args: { command: 'git revert a91f3c2' }, result: 'done' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['a91f3c2'],
  },
  {
    name: 'a stubbed result whose setting name is used later',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'deploy/env.sample' },
        result: 'DATABASE_POOL_SIZE=5\nREQUEST_TIMEOUT=30',
      },
      { say: 'Let me raise the pool.' },
      {
        call: 'edit_file',
        args: {
          path: 'deploy/env.sample',
          old: 'DATABASE_POOL_SIZE=5',
          new: 'DATABASE_POOL_SIZE=20',
        },
        result: 'ok',
      },
    ],
    removals: [{ step: 1, how: 'stub', text: '[cleared]' }],
    used: [1],
    evidence: ['DATABASE_POOL_SIZE'],
  },
  {
    name: 'a summarised group whose helper the summary does not name',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'net/client.py' },
        result: 'def retry_with_jitter(fn, attempts=3):\n    ...',
      },
      { say: 'Now the fix.' },
      { say: 'I wrap the call in retry_with_jitter so transient errors are retried.' },
    ],
    removals: [{ step: 1, how: 'summarise', text: 'The agent read the network client.' }],
    used: [1],
    evidence: ['retry_with_jitter'],
  },
  {
    name: 'a trimmed result whose cut-off part is used later',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'src/queue.ts' },
        result:
          '// queue\n' + 'const a = 1\n'.repeat(20) + 'export const drainPendingJobs = () => {}',
      },
      { say: 'Calling drainPendingJobs on shutdown.' },
    ],
    removals: [{ step: 1, how: 'trim', text: '// queue\nconst a = 1\n[… trimmed]' }],
    used: [1],
    evidence: ['drainPendingJobs'],
  },
  {
    name: 'a path used several calls later',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'find . -name "*.yaml"' },
        result: './config/prod/limits.yaml\n./config/dev/limits.yaml',
      },
      { say: 'One.' },
      { say: 'Two.' },
      { say: 'Three.' },
      { call: 'read_file', args: { path: 'config/prod/limits.yaml' }, result: 'x: 1' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['config/prod/limits.yaml'],
  },
  {
    name: 'an environment variable name from a removed .env read',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: '.env.example' },
        result: 'STRIPE_WEBHOOK_SECRET=whsec_xxx\nPORT=3000',
      },
      { say: 'Done reading.' },
      {
        call: 'edit_file',
        args: { path: 'src/billing.ts', new: 'process.env.STRIPE_WEBHOOK_SECRET' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['STRIPE_WEBHOOK_SECRET'],
  },
  {
    name: 'a dotted settings name',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'conf.py' },
        result: 'settings.cache_ttl_seconds = 60',
      },
      { say: 'Next.' },
      { say: 'Lowering settings.cache_ttl_seconds fixes the stale reads.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['settings.cache_ttl_seconds'],
  },
  {
    name: 'a mapped port from a removed docker ps',
    steps: [
      { user: 'Connect to the test database.' },
      {
        call: 'bash',
        args: { command: 'docker ps' },
        result: 'CONTAINER ID  IMAGE  PORTS\n3f2a  postgres  0.0.0.0:54321->5432/tcp',
      },
      { say: 'Connecting.' },
      { call: 'bash', args: { command: 'psql -h localhost -p 54321 -U app' }, result: 'psql>' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['54321'],
  },
  {
    name: 'an id from a removed API response is used in a later call',
    steps: [
      { user: 'Cancel my latest order.' },
      {
        call: 'http',
        args: { url: '/orders?limit=1' },
        result: '{"id": "c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00", "status": "open"}',
      },
      { say: 'Cancelling it.' },
      {
        call: 'http',
        args: { url: '/orders/c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00/cancel' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['c0a8e9f2-4b1d-4e7a-9f3c-2d8b7e6a1f00'],
  },
  {
    name: 'a URL from a removed search result is fetched later',
    steps: [
      { user: 'Find the changelog of the parser library.' },
      {
        call: 'web_search',
        args: { query: 'fastparse changelog' },
        result: 'Fastparse releases — https://docs.fastparse.dev/en/latest/changelog.html',
      },
      { say: 'Opening it.' },
      {
        call: 'fetch',
        args: { url: 'https://docs.fastparse.dev/en/latest/changelog.html' },
        result: '...',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['https://docs.fastparse.dev/en/latest/changelog.html'],
  },
  {
    name: 'two removed reads hold the path: the nearest one before the use is credited',
    steps: [
      FIX,
      { call: 'read_file', args: { path: 'pkg/cache/lru.go' }, result: 'func evictOldest() {}' },
      { say: 'Reading again after the change.' },
      {
        call: 'read_file',
        args: { path: 'pkg/cache/lru.go' },
        result: 'func evictOldest() {} // v2',
      },
      { say: 'Now evictOldest is called from the janitor.' },
    ],
    removals: [ex(1), ex(3)],
    // Both were used: the second read's call takes its path from the first (nothing kept names
    // it), and `evictOldest` is then credited to the second read, the nearest before its use.
    used: [1, 3],
    evidenceByStep: { 1: ['pkg/cache/lru.go'], 3: ['evictOldest'] },
  },
  {
    name: 'recall: a missing module named by a plain word (the detector cannot see it)',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'python app.py' },
        result: "ModuleNotFoundError: No module named 'requests'",
      },
      { say: 'Installing it.' },
      { call: 'bash', args: { command: 'pip install requests' }, result: 'ok' },
    ],
    removals: [ex(1)],
    used: [1],
  },
  {
    name: 'recall: a paraphrased error (the detector cannot see it)',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'go test ./...' },
        result: 'fatal error: all goroutines are asleep - deadlock!',
      },
      { say: 'There is a deadlock between the two goroutines, I will add a buffered channel.' },
    ],
    removals: [ex(1)],
    used: [1],
  },

  // ——— negatives ———
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
  {
    name: 'a quoted error string searched for in a later tool call',
    steps: [
      { user: 'Customers see rate-limit errors, find where they come from.' },
      {
        call: 'fetch',
        args: { url: 'https://status.example.org/incidents/88' },
        result: 'The API answered "Rate limit exceeded for organization" to 3% of calls.',
      },
      { say: 'Searching the code for it.' },
      {
        call: 'bash',
        args: { command: 'grep -rn "Rate limit exceeded for organization" src' },
        result: 'src/limits.ts:40',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['Rate limit exceeded for organization'],
  },
  {
    name: 'a PascalCase method from a removed Go file',
    steps: [
      FIX,
      {
        call: 'read_file',
        args: { path: 'store/segments.go' },
        result: 'func (s *Store) CompactSegments() error {\n\treturn nil\n}',
      },
      { say: 'Next.' },
      { say: 'CompactSegments never returns its error; fixing that.' },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['CompactSegments'],
  },
  {
    name: 'single upper-case words are not evidence',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'grep -rn TODO' }, result: 'a.c: TODO FIXME XXX' },
      { say: 'There is a TODO and a FIXME left.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a duration the agent chose on its own (hard negative)',
    steps: [
      { user: 'Debounce the search box.' },
      {
        call: 'bash',
        args: { command: 'npm test' },
        result: 'PASS search.test.ts (250ms)\nPASS list.test.ts (31ms)',
      },
      { say: 'Tests pass.' },
      { say: 'I set the debounce to 250ms, a common choice for typing.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'code lines from a removed numbered read reappear in a later edit',
    steps: [
      FIX,
      {
        call: 'Read',
        args: { file_path: '/repo/src/config/merge.ts' },
        result:
          '   40→export function mergeLayers(base: Layer, over: Layer) {\n' +
          '   41→  return { ...base, ...over, sources: [...base.sources] }\n' +
          '   42→}',
      },
      { say: 'I see the problem.' },
      {
        call: 'Edit',
        args: {
          file_path: '/repo/src/config/merge.ts',
          old_string: 'sources: [...base.sources]',
          new_string: 'sources: [...base.sources, ...over.sources]',
        },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['/repo/src/config/merge.ts'],
  },
  {
    name: 'a function from a removed diff is named in a later commit message',
    steps: [
      FIX,
      {
        call: 'bash',
        args: { command: 'git diff' },
        result: '+def coalesce_empty_sections(doc):\n+    return doc or {}',
      },
      { say: 'Committing.' },
      {
        call: 'bash',
        args: { command: 'git commit -am "Add coalesce_empty_sections for empty files"' },
        result: '[main 1a2b3c4] ok',
      },
    ],
    removals: [ex(1)],
    used: [1],
    evidence: ['coalesce_empty_sections'],
  },
  {
    name: 'a later kept test run holds the count the agent reports',
    steps: [
      FIX,
      { call: 'bash', args: { command: 'npm test' }, result: 'Tests: 147 passed, 1 failed' },
      { say: 'Fixing the failure.' },
      { call: 'bash', args: { command: 'npm test' }, result: 'Tests: 148 passed' },
      { say: 'All 148 passed now.' },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'framework hooks in a new component are not evidence',
    steps: [
      { user: 'Add a counter component.' },
      {
        call: 'read_file',
        args: { path: 'src/App.tsx' },
        result: 'const [n, setN] = useState(0)\nuseEffect(() => {}, [])',
      },
      { say: 'Writing it.' },
      {
        call: 'write_file',
        args: { path: 'src/Counter.tsx', content: 'const [count, setCount] = useState(0)' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a conventional handler name in new code (hard negative)',
    steps: [
      { user: 'Add a newsletter form.' },
      {
        call: 'read_file',
        args: { path: 'src/LoginForm.tsx' },
        result: 'const handleSubmit = (e) => { e.preventDefault() }',
      },
      { say: 'Writing the new form.' },
      {
        call: 'write_file',
        args: { path: 'src/Newsletter.tsx', content: 'function handleSubmit(e) { send(e) }' },
        result: 'ok',
      },
    ],
    removals: [ex(1)],
    used: [],
  },
  {
    name: 'a natural generic name the agent would write anyway (hard negative)',
    steps: [
      { user: 'Write a cleanup script.' },
      { call: 'bash', args: { command: 'env' }, result: 'SHELL=/bin/bash\ntmp_dir=/var/tmp' },
      { say: 'Done looking.' },
      { say: 'The script creates a tmp_dir and removes it at exit.' },
    ],
    removals: [ex(1)],
    used: [],
  },
]
