/** Turn 3: pagination for GET /todos on a feature branch. */
import { bashCall, grepCall, readCall } from './tools.ts'
import { edit, npmTest, testCount, type Ctx } from './scenario-kit.ts'

export function turnPagination(ctx: Ctx): void {
  const { s, vfs, todos } = ctx
  s.prompt(
    'Great. Next: add pagination to GET /todos — `limit` (default 20, max 100) and `offset` query ' +
      'params — and return `{ items, total }` instead of a bare array. Do it on a new branch.',
  )
  const plan = (done: number): Array<[string, 'pending' | 'in_progress' | 'completed', string]> =>
    [
      ['Create a feature branch', 'Creating a feature branch'],
      ['Add paged query and count to db.ts', 'Adding paged query and count to db.ts'],
      ['Parse and validate limit/offset in GET /todos', 'Parsing and validating limit/offset'],
      ['Update and extend the tests', 'Updating and extending the tests'],
      ['Run the test suite', 'Running the test suite'],
    ].map(([c, a], i) => [
      c as string,
      i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      a as string,
    ])
  s.step({
    thinking:
      'This changes the response shape of GET /todos, so existing tests that expect an array will ' +
      'break and need updating too. Plan it, then branch first so main stays clean.',
    calls: [todos.call(plan(0))],
  })
  s.step({
    calls: [
      bashCall(
        'git checkout -b feat/pagination',
        'Create the feature branch',
        "Switched to a new branch 'feat/pagination'",
      ),
    ],
  })
  s.setBranch('feat/pagination')
  s.step({
    calls: [todos.call(plan(1)), readCall(vfs, 'src/db.ts'), readCall(vfs, 'src/routes/todos.ts')],
  })
  s.step({
    text: 'Checking who calls `listTodos` before changing its signature:',
    calls: [grepCall(vfs, 'listTodos', { mode: 'content' })],
  })
  s.step({
    text: 'Only the route. Adding a paged statement and a count in the data layer:',
    calls: [
      edit(
        ctx,
        'src/db.ts',
        "  const all = sqlite.prepare('SELECT id, title, completed, created_at AS createdAt FROM todos ORDER BY id');",
        '  const page = sqlite.prepare(\n' +
          "    'SELECT id, title, completed, created_at AS createdAt FROM todos ORDER BY id LIMIT ? OFFSET ?',\n  );\n" +
          "  const count = sqlite.prepare('SELECT COUNT(*) AS n FROM todos');",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '    listTodos(): Todo[] {\n      return (all.all() as TodoRow[]).map(toTodo);\n    },',
        '    listTodos(limit = 20, offset = 0): Todo[] {\n      return (page.all(limit, offset) as TodoRow[]).map(toTodo);\n    },\n\n' +
          '    countTodos(): number {\n      return (count.get() as { n: number }).n;\n    },',
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(plan(2)),
      edit(
        ctx,
        'src/routes/todos.ts',
        "  app.get('/todos', async () => {\n    return db.listTodos();\n  });",
        "  app.get<{ Querystring: { limit?: string; offset?: string } }>('/todos', async (req, reply) => {\n" +
          '    const limit = req.query.limit === undefined ? 20 : Number(req.query.limit);\n' +
          '    const offset = req.query.offset === undefined ? 0 : Number(req.query.offset);\n' +
          '    if (!Number.isInteger(limit) || limit > 100) {\n' +
          "      return reply.code(400).send({ error: 'invalid_limit', max: 100 });\n    }\n" +
          '    if (!Number.isInteger(offset) || offset < 0) {\n' +
          "      return reply.code(400).send({ error: 'invalid_offset' });\n    }\n" +
          '    return { items: db.listTodos(limit, offset), total: db.countTodos() };\n  });',
      ),
    ],
  })
  s.step({
    calls: [todos.call(plan(3)), readCall(vfs, 'tests/todos.test.ts', { offset: 1, limit: 30 })],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'tests/todos.test.ts',
        '    expect(res.json()).toEqual([]);',
        '    expect(res.json()).toEqual({ items: [], total: 0 });',
      ),
    ],
  })
  const mapTitles = 'map((t: { title: string }) => t.title)'
  s.step({
    calls: [
      edit(
        ctx,
        'tests/todos.test.ts',
        `    expect(res.json().${mapTitles}).toEqual(['first', 'second']);\n  });\n});`,
        `    expect(res.json().items.${mapTitles}).toEqual(['first', 'second']);\n  });\n\n` +
          "  it('pages with limit and offset', async () => {\n" +
          "    for (let i = 0; i < 5; i++) ctx.db.createTodo({ title: 'todo ' + i });\n" +
          "    const res = await ctx.app.inject({ method: 'GET', url: '/todos?limit=2&offset=2' });\n" +
          `    expect(res.json().items.${mapTitles}).toEqual(['todo 2', 'todo 3']);\n` +
          '    expect(res.json().total).toBe(5);\n  });\n\n' +
          "  it('defaults to 20 items', async () => {\n" +
          "    for (let i = 0; i < 25; i++) ctx.db.createTodo({ title: 'todo ' + i });\n" +
          "    const res = await ctx.app.inject({ method: 'GET', url: '/todos' });\n" +
          '    expect(res.json().items).toHaveLength(20);\n  });\n\n' +
          "  it('rejects limit above 100', async () => {\n" +
          "    const res = await ctx.app.inject({ method: 'GET', url: '/todos?limit=500' });\n" +
          '    expect(res.statusCode).toBe(400);\n  });\n\n' +
          "  it('rejects limit=0', async () => {\n" +
          "    const res = await ctx.app.inject({ method: 'GET', url: '/todos?limit=0' });\n" +
          '    expect(res.statusCode).toBe(400);\n  });\n});',
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(plan(4)),
      npmTest(ctx, {
        failures: [
          {
            test: 'stress > creates and reads back 500 todos',
            file: 'tests/stress.test.ts',
            needle: 'toHaveLength(500)',
            error:
              'AssertionError: expected { items: [ …(20) ], total: 500 } to have property "length"',
            diff: [],
          },
          {
            test: 'GET /todos > rejects limit=0',
            file: 'tests/todos.test.ts',
            needle: 'toBe(400)',
            error: 'AssertionError: expected 200 to be 400 // Object.is equality',
            diff: ['- Expected', '+ Received', '', '- 400', '+ 200'],
          },
        ],
      }),
    ],
  })
  s.step({
    thinking:
      'Two failures. limit=0 passes my check because I only bounded the top. The stress test still ' +
      'expects a bare array; it reads the whole list, which is now paged, so asserting on total is ' +
      'the right check rather than raising the page size.',
    calls: [
      edit(
        ctx,
        'src/routes/todos.ts',
        'if (!Number.isInteger(limit) || limit > 100) {',
        'if (!Number.isInteger(limit) || limit < 1 || limit > 100) {',
      ),
      readCall(vfs, 'tests/stress.test.ts'),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'tests/stress.test.ts',
        '    expect(res.json()).toHaveLength(500);',
        '    expect(res.json().total).toBe(500);',
      ),
    ],
  })
  s.step({ calls: [npmTest(ctx)] })
  s.step({ calls: [todos.call(plan(5))] })
  s.reply(
    'Pagination is in, on branch `feat/pagination`:\n\n' +
      '- `GET /todos?limit=&offset=` — `limit` defaults to 20, must be 1–100; `offset` ≥ 0. Invalid ' +
      'values get `400` with `invalid_limit` / `invalid_offset`.\n' +
      '- Response is now `{ items, total }` (`total` is the full count, for page controls).\n' +
      '- `db.ts`: `listTodos(limit, offset)` uses `LIMIT/OFFSET`; new `countTodos()`.\n' +
      '- Tests: updated the two list tests and the stress test for the new shape, added 4 tests. ' +
      `All ${testCount(ctx)} pass.\n\nNote this is a breaking change for any client expecting an array.`,
  )
}
