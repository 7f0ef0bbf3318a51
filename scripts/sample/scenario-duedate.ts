/** Turn 8: an optional dueDate with an in-place migration and sorting. */
import { bashCall, grepCall, readCall } from './tools.ts'
import { edit, npmTest, planAt, revisit, testCount, type Ctx } from './scenario-kit.ts'
import { DUE_DATE_TESTS, DUE_DATE_VALIDATOR } from './scenario-texts.ts'
import {
  LEGACY_CMD,
  LEGACY_OUT,
  tscSortError,
  turnDueDateRoutes,
} from './scenario-duedate-routes.ts'

const DUE_PLAN = [
  ['Add dueDate to the Todo types', 'Adding dueDate to the Todo types'],
  ['Migrate existing databases (add due_date column)', 'Migrating existing databases'],
  ['Store, return and sort by dueDate in db.ts', 'Storing, returning and sorting by dueDate'],
  ['Validate dueDate and sort in the routes', 'Validating dueDate and sort in the routes'],
  ['Tests, typecheck, and a legacy-database check', 'Running tests, typecheck and legacy check'],
] as const

export function turnDueDate(ctx: Ctx): void {
  const { s, vfs, todos } = ctx
  s.prompt(
    'Add an optional `dueDate` (ISO date, YYYY-MM-DD) to todos, and let GET /todos sort by it with ' +
      '`?sort=dueDate` (todos without a due date last). Existing databases must keep working.',
  )
  s.step({
    thinking:
      'Existing databases have no due_date column and CREATE TABLE IF NOT EXISTS will not add it, so ' +
      'I need an in-place migration (PRAGMA table_info + ALTER TABLE ADD COLUMN). Sorting with nulls ' +
      'last: SQLite puts NULL first ascending, so order by "due_date IS NULL, due_date, id".',
    calls: [todos.call(planAt(DUE_PLAN, 0)), grepCall(vfs, 'interface Todo', { path: 'src' })],
  })
  s.step({ calls: [readCall(vfs, 'src/types.ts'), readCall(vfs, 'src/db.ts')] })
  s.step({ calls: [grepCall(vfs, 'listTodos\\(|createTodo\\(', { mode: 'content' })] })
  s.step({
    calls: [
      edit(
        ctx,
        'src/types.ts',
        '  completed: boolean;\n  createdAt: string;\n}',
        '  completed: boolean;\n  createdAt: string;\n  /** Calendar date (YYYY-MM-DD) or null when there is none. */\n  dueDate: string | null;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/types.ts',
        'export interface NewTodo {\n  title: string;\n}',
        'export interface NewTodo {\n  title: string;\n  dueDate?: string;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/types.ts',
        '  title?: string;\n  completed?: boolean;\n}',
        '  title?: string;\n  completed?: boolean;\n  dueDate?: string | null;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(planAt(DUE_PLAN, 1)),
      edit(
        ctx,
        'src/db.ts',
        '  sqlite.exec(SCHEMA);\n',
        '  sqlite.exec(SCHEMA);\n  migrate(sqlite);\n',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '  fill();\n}\n',
        '  fill();\n}\n\n// Databases created before dueDate existed lack the column; add it in place.\n' +
          'function migrate(sqlite: Database.Database) {\n' +
          "  const cols = sqlite.prepare('PRAGMA table_info(todos)').all() as { name: string }[];\n" +
          "  if (!cols.some((c) => c.name === 'due_date')) {\n    sqlite.exec('ALTER TABLE todos ADD COLUMN due_date TEXT');\n  }\n}\n",
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(planAt(DUE_PLAN, 2)),
      edit(
        ctx,
        'src/db.ts',
        '  completed: number;\n  createdAt: string;\n}',
        '  completed: number;\n  createdAt: string;\n  dueDate: string | null;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '  return { id: row.id, title: row.title, completed: row.completed === 1, createdAt: row.createdAt };',
        '  return {\n    id: row.id,\n    title: row.title,\n    completed: row.completed === 1,\n' +
          '    createdAt: row.createdAt,\n    dueDate: row.dueDate,\n  };',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        "  const insert = sqlite.prepare('INSERT INTO todos (title) VALUES (?)');\n" +
          "  const byId = sqlite.prepare('SELECT id, title, completed, created_at AS createdAt FROM todos WHERE id = ?');\n" +
          '  const page = sqlite.prepare(\n' +
          "    'SELECT id, title, completed, created_at AS createdAt FROM todos ORDER BY id LIMIT ? OFFSET ?',\n  );",
        "  const COLUMNS = 'id, title, completed, created_at AS createdAt, due_date AS dueDate';\n" +
          "  const insert = sqlite.prepare('INSERT INTO todos (title, due_date) VALUES (?, ?)');\n" +
          "  const byId = sqlite.prepare('SELECT ' + COLUMNS + ' FROM todos WHERE id = ?');\n" +
          "  const pageById = sqlite.prepare('SELECT ' + COLUMNS + ' FROM todos ORDER BY id LIMIT ? OFFSET ?');\n" +
          '  // ASC puts NULL first in SQLite; sorting on "due_date IS NULL" first moves them last.\n' +
          '  const pageByDue = sqlite.prepare(\n' +
          "    'SELECT ' + COLUMNS + ' FROM todos ORDER BY due_date IS NULL, due_date, id LIMIT ? OFFSET ?',\n  );",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '    listTodos(limit = 20, offset = 0): Todo[] {\n      return (page.all(limit, offset) as TodoRow[]).map(toTodo);',
        "    listTodos(limit = 20, offset = 0, sort: 'id' | 'dueDate' = 'id'): Todo[] {\n" +
          "      const stmt = sort === 'dueDate' ? pageByDue : pageById;\n" +
          '      return (stmt.all(limit, offset) as TodoRow[]).map(toTodo);',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        '      const info = insert.run(input.title);',
        '      const info = insert.run(input.title, input.dueDate ?? null);',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/db.ts',
        "        .prepare('UPDATE todos SET title = ?, completed = ? WHERE id = ?')\n        .run(next.title, next.completed ? 1 : 0, id);",
        "        .prepare('UPDATE todos SET title = ?, completed = ?, due_date = ? WHERE id = ?')\n" +
          '        .run(next.title, next.completed ? 1 : 0, next.dueDate ?? null, id);',
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(planAt(DUE_PLAN, 3)),
      edit(
        ctx,
        'src/validate.ts',
        '  return null;\n}\n',
        '  return null;\n}\n' + DUE_DATE_VALIDATOR,
      ),
    ],
  })
  s.step({ calls: [revisit(ctx), revisit(ctx)] })
  turnDueDateRoutes(ctx)
  s.step({
    calls: [
      todos.call(planAt(DUE_PLAN, 4)),
      edit(
        ctx,
        'tests/todos.test.ts',
        "    expect(res.json().title).toBe('tidy');\n  });\n});",
        "    expect(res.json().title).toBe('tidy');\n  });\n});" +
          DUE_DATE_TESTS.replace(/\n$/, ''),
      ),
    ],
  })
  s.step({
    calls: [
      npmTest(ctx),
      bashCall('npx tsc --noEmit', 'Type-check the project', tscSortError(ctx), {
        exitCode: 2,
        ms: 3_400,
      }),
    ],
  })
  s.step({
    thinking:
      'Tests pass (tsx strips types) but tsc is right: comparing a string against two literals does ' +
      'not narrow it to the union. A type guard keeps the runtime check and gives tsc the narrowing.',
    calls: [
      edit(
        ctx,
        'src/routes/todos.ts',
        'interface IdParams {\n  id: string;\n}\n',
        "interface IdParams {\n  id: string;\n}\n\nconst SORT_KEYS = ['id', 'dueDate'] as const;\ntype SortKey = (typeof SORT_KEYS)[number];\n\nfunction isSortKey(value: string): value is SortKey {\n  return (SORT_KEYS as readonly string[]).includes(value);\n}\n",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/routes/todos.ts',
        "    if (sort !== 'id' && sort !== 'dueDate') {",
        '    if (!isSortKey(sort)) {',
      ),
    ],
  })
  s.step({ calls: [bashCall('npx tsc --noEmit', 'Type-check the project', '', { ms: 3_100 })] })
  s.step({
    text: 'Finally, an old-schema database, to check the migration path:',
    calls: [
      bashCall(LEGACY_CMD, 'Open a pre-dueDate database with the new code', LEGACY_OUT, {
        ms: 2_300,
      }),
    ],
  })
  s.step({ calls: [todos.call(planAt(DUE_PLAN, 5))] })
  s.reply(
    `\`dueDate\` is in. Tests: ${testCount(ctx)} passing; \`tsc --noEmit\` is clean.\n\n` +
      '- **Types**: `Todo.dueDate: string | null`; optional on create and patch.\n' +
      '- **Migration**: `openDb` runs `migrate()`, which adds the `due_date` column when it is missing ' +
      '— verified on a database created by the previous schema (rows come back with `dueDate: null`).\n' +
      '- **Sorting**: `GET /todos?sort=dueDate` orders by due date with undated todos last; unknown ' +
      'sort keys get `400 invalid_sort`.\n- **Validation**: `dueDate` must be `YYYY-MM-DD` (POST and PATCH).',
  )
}
