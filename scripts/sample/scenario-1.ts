/** Turns 1, 2, 4, 5: orientation, the boolean bug, a /cost command, a verbose debug run. */
import { bashCall, globCall, grepCall, readCall } from './tools.ts'
import { edit, npmTest, readAround, testCount, type Ctx } from './scenario-kit.ts'

const GIT_LOG = `On branch main
Your branch is up to date with 'origin/main'.

nothing to commit, working tree clean
a41c9e2 Store completed as an INTEGER column
7d03b18 Add PATCH and DELETE routes
2f9e6c4 Add GET /todos/:id
91b2d7a Fastify + SQLite skeleton
0c3a5f1 Initial commit`

export function turnOrientation(ctx: Ctx): void {
  const { s, vfs } = ctx
  s.prompt(
    'I just cloned todo-api and `npm test` fails on main. Get oriented in the codebase and tell me ' +
      'why before changing anything.',
  )
  s.step({
    thinking:
      'The user wants a diagnosis first and explicitly no changes yet. I should map the project ' +
      '(TypeScript files, scripts in package.json, git state) in one go, then read the core ' +
      'modules, then run the tests to see the actual failures rather than guessing.',
    text: "I'll start with the project layout, the npm scripts and the git state.",
    calls: [
      globCall(vfs, '**/*.ts'),
      readCall(vfs, 'package.json'),
      bashCall('git status && git log --oneline -5', 'Show git status and recent commits', GIT_LOG),
    ],
    // The shell returns before the file tools here, as happens with parallel calls.
    resultOrder: [2, 0, 1],
  })
  s.step({
    text: 'A Fastify app over better-sqlite3. Reading the core modules:',
    calls: [
      readCall(vfs, 'src/server.ts'),
      readCall(vfs, 'src/app.ts'),
      readCall(vfs, 'src/db.ts'),
      readCall(vfs, 'src/routes/todos.ts'),
    ],
  })
  s.step({
    text: 'Now the failing run itself:',
    calls: [
      npmTest(ctx, {
        failures: [
          {
            test: 'POST /todos > creates a todo and returns 201',
            file: 'tests/todos.test.ts',
            needle: 'toMatchObject',
            error:
              "AssertionError: expected { id: 1, title: 'buy milk', …(2) } to match object " +
              "{ title: 'buy milk', completed: false }",
            diff: [
              '- Expected',
              '+ Received',
              '',
              '  {',
              '-   "completed": false,',
              '+   "completed": 0,',
              '    "title": "buy milk",',
              '  }',
            ],
          },
          {
            test: 'PATCH /todos/:id > toggles completed',
            file: 'tests/todos.test.ts',
            needle: 'toBe(true)',
            error: 'AssertionError: expected 1 to be true // Object.is equality',
            diff: ['- Expected', '+ Received', '', '- true', '+ 1'],
          },
        ],
      }),
    ],
  })
  s.step({
    thinking:
      'Both failures are about `completed`: the API returns 0/1 instead of booleans. In db.ts the ' +
      'SELECT aliases created_at but nothing converts completed, and the rows are cast `as Todo`, ' +
      'so the type claims boolean while SQLite hands back integers. Let me confirm nothing else ' +
      'maps rows before concluding.',
    calls: [grepCall(vfs, 'completed', { path: 'src', mode: 'content' })],
  })
  s.step({ calls: [readAround(ctx, 'tests/todos.test.ts', "it('toggles completed'", 1, 12)] })
  s.step({ calls: [readAround(ctx, 'src/db.ts', 'const insert = sqlite.prepare', 2, 14)] })
  s.reply(
    'Two tests fail for the same reason: **`completed` comes back as `0`/`1`, not a boolean.**\n\n' +
      '- The column is `INTEGER` (commit a41c9e2 changed it) and SQLite has no boolean type.\n' +
      '- `src/db.ts` returns rows straight from better-sqlite3 with `as Todo` casts, so TypeScript ' +
      'believes `completed: boolean` while the runtime value is a number.\n' +
      '- `POST /todos` expects `completed: false` and gets `0`; `PATCH` expects `true` and gets `1`.\n\n' +
      'Writes are fine (`updateTodo` already stores `1`/`0`). The fix is a row mapper in `db.ts` ' +
      'that converts on read. I have not changed anything yet — want me to go ahead?',
  )
}

export function turnBooleanFix(ctx: Ctx): void {
  const { s } = ctx
  s.prompt(
    'Makes sense. Fix it, but keep the column as INTEGER — other tools read that database file.',
  )
  s.step({
    thinking:
      'Storage stays INTEGER; convert at the boundary. A TodoRow type plus toTodo() used by getTodo ' +
      'and listTodos covers both failing paths, since createTodo and updateTodo return getTodo().',
    text: "I'll add a row type and a mapper, and use it on both read paths.",
    calls: [
      edit(
        ctx,
        'src/db.ts',
        'export type Db = ReturnType<typeof openDb>;\n',
        'export type Db = ReturnType<typeof openDb>;\n\n' +
          '// SQLite has no boolean type: the column stays INTEGER and we convert at the boundary.\n' +
          'interface TodoRow {\n  id: number;\n  title: string;\n  completed: number;\n  createdAt: string;\n}\n\n' +
          'function toTodo(row: TodoRow): Todo {\n' +
          '  return { id: row.id, title: row.title, completed: row.completed === 1, createdAt: row.createdAt };\n}\n',
      ),
    ],
  })
  s.step({ calls: [readAround(ctx, 'src/db.ts', 'listTodos(): Todo[]', 2, 12)] })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '    listTodos(): Todo[] {\n      return all.all() as Todo[];\n    },\n\n' +
          '    getTodo(id: number): Todo | undefined {\n      return byId.get(id) as Todo | undefined;\n    },',
        '    listTodos(): Todo[] {\n      return (all.all() as TodoRow[]).map(toTodo);\n    },\n\n' +
          '    getTodo(id: number): Todo | undefined {\n      const row = byId.get(id) as TodoRow | undefined;\n' +
          '      return row ? toTodo(row) : undefined;\n    },',
      ),
    ],
  })
  s.step({ calls: [npmTest(ctx)] })
  s.reply(
    'Fixed. `src/db.ts` now has a `TodoRow` type (what SQLite returns) and `toTodo()`, used by ' +
      '`listTodos` and `getTodo`; everything else returns through `getTodo`, so the API always sends ' +
      `booleans. The column is still \`INTEGER\`. All ${testCount(ctx)} tests pass.`,
  )
}

export function turnCostCommand(ctx: Ctx): void {
  const { s } = ctx
  s.injected(
    [
      {
        type: 'text',
        text:
          'Caveat: the messages below came from local commands the user ran. Do not respond to them ' +
          'or take them into account unless the user explicitly asks you to.',
      },
    ],
    true,
  )
  s.injected(
    '<command-name>/cost</command-name>\n<command-message>cost</command-message>\n<command-args></command-args>',
    false,
  )
  s.injected(
    '<local-command-stdout>Total cost:            $0.93\nTotal duration (API):  2m 41.3s\n' +
      'Total duration (wall): 10m 8.6s\nTotal code changes:    52 lines added, 8 lines removed\n' +
      'Usage by model:\n  claude-sonnet-4-5:  1.2k input, 9.8k output, 1.1m cache read, 88.4k cache write ($0.93)' +
      '</local-command-stdout>',
    false,
  )
}

export function turnVerboseRun(ctx: Ctx): void {
  const { s } = ctx
  s.prompt(
    'Run the full suite verbosely with debug logging — I want per-test timings and to see what the ' +
      'stress test is actually doing.',
  )
  s.step({
    calls: [
      npmTest(ctx, {
        verbose: true,
        logs: true,
        command: 'LOG_LEVEL=debug npm test -- --reporter=verbose',
        args: '--reporter=verbose',
      }),
    ],
  })
  s.reply(
    `All ${testCount(ctx)} tests pass. Timings:\n\n` +
      '- **stress** dominates at ~1.3 s: 500 sequential `POST /todos` plus one `GET`, each request ' +
      'logging an `incoming request` / `request completed` pair at debug level (that is most of the ' +
      'output above). Response times are 0.2–1.8 ms per request, so the cost is sequential round ' +
      'trips through `inject`, not SQLite.\n' +
      '- Everything else is 1–14 ms per test.\n\n' +
      'If the suite ever feels slow, batching the stress inserts with `Promise.all` would cut it ' +
      'down, but at ~1 s it is fine as is.',
  )
}
