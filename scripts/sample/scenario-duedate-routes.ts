/** Turn 8, continued: the route changes for dueDate, plus the outputs that turn quotes. */
import { edit, type Ctx } from './scenario-kit.ts'

export function turnDueDateRoutes(ctx: Ctx): void {
  const { s } = ctx
  const r = 'src/routes/todos.ts'
  s.step({
    text: 'Now the routes: sort on the list, dueDate on create and update.',
    calls: [
      edit(
        ctx,
        r,
        "import { validateTitle } from '../validate.js';",
        "import { validateDueDate, validateTitle } from '../validate.js';",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        r,
        '{ limit?: string; offset?: string } }>',
        '{ limit?: string; offset?: string; sort?: string } }>',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        r,
        '    return { items: db.listTodos(limit, offset), total: db.countTodos() };',
        "    const sort = req.query.sort ?? 'id';\n    if (sort !== 'id' && sort !== 'dueDate') {\n" +
          "      return reply.code(400).send({ error: 'invalid_sort', allowed: ['id', 'dueDate'] });\n    }\n" +
          '    return { items: db.listTodos(limit, offset, sort), total: db.countTodos() };',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        r,
        "  app.post<{ Body: { title?: unknown } }>('/todos', async (req, reply) => {\n" +
          '    const invalid = validateTitle(req.body?.title);\n    if (invalid) return reply.code(400).send(invalid);\n' +
          '    const todo = db.createTodo({ title: (req.body.title as string).trim() });',
        "  app.post<{ Body: { title?: unknown; dueDate?: unknown } }>('/todos', async (req, reply) => {\n" +
          '    const invalid = validateTitle(req.body?.title) ?? validateDueDate(req.body?.dueDate);\n' +
          '    if (invalid) return reply.code(400).send(invalid);\n    const todo = db.createTodo({\n' +
          '      title: (req.body.title as string).trim(),\n      dueDate: req.body.dueDate as string | undefined,\n    });',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        r,
        '  app.patch<{ Params: IdParams; Body: { title?: string; completed?: boolean } }>(',
        '  app.patch<{\n    Params: IdParams;\n    Body: { title?: string; completed?: boolean; dueDate?: string | null };\n  }>(',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        r,
        '      if (req.body?.title !== undefined) {\n        const invalid = validateTitle(req.body.title);\n' +
          '        if (invalid) return reply.code(400).send(invalid);\n      }\n',
        '      const invalid =\n        (req.body?.title !== undefined ? validateTitle(req.body.title) : null) ??\n' +
          '        validateDueDate(req.body?.dueDate);\n      if (invalid) return reply.code(400).send(invalid);\n',
      ),
    ],
  })
}

export function tscSortError(ctx: Ctx): string {
  const line = ctx.vfs.lineOf('src/routes/todos.ts', 'db.listTodos(limit, offset, sort)')
  return (
    `src/routes/todos.ts(${line},55): error TS2345: Argument of type 'string' is not assignable to ` +
    `parameter of type '"id" | "dueDate" | undefined'.\n\nFound 1 error in src/routes/todos.ts:${line}\n`
  )
}

export const LEGACY_CMD =
  "git show main:src/db.ts > /tmp/db-v0.ts && sed -i 's#./types.js#../home/dev/projects/todo-api/src/types.js#' /tmp/db-v0.ts && " +
  "npx tsx -e \"import('/tmp/db-v0.ts').then(m => m.openDb('/tmp/legacy.db', { seed: true }).close())\" && " +
  "npx tsx -e \"import('./src/db.ts').then(m => { const db = m.openDb('/tmp/legacy.db'); console.log(db.listTodos(3, 0), db.countTodos()); db.close() })\""

export const LEGACY_OUT = `[
  {
    id: 1,
    title: 'Demo todo #0',
    completed: true,
    createdAt: '2026-03-14T10:41:07.318Z',
    dueDate: null
  },
  {
    id: 2,
    title: 'Demo todo #1',
    completed: false,
    createdAt: '2026-03-14T10:41:07.318Z',
    dueDate: null
  },
  {
    id: 3,
    title: 'Demo todo #2',
    completed: false,
    createdAt: '2026-03-14T10:41:07.318Z',
    dueDate: null
  }
] 5000`
