// Labelled risk cases where the agent really used removed content later (see labelled.testing.ts).
import { ex, FIX, type LabelledCase } from './labelled-kit.testing.ts'

export const POSITIVE_CASES: readonly LabelledCase[] = [
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
]
