// Later labelled risk cases of both kinds, several of them hard (see labelled.testing.ts).
import { ex, FIX, type LabelledCase } from './labelled-kit.testing.ts'

export const MIXED_CASES: readonly LabelledCase[] = [
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
