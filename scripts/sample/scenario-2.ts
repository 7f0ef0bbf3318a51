/** Turns 6–7: API docs through a Skill, and title validation. */
import { editCall, globCall, grepCall, readCall, skillCall, writeCall } from './tools.ts'
import { edit, npmTest, planAt, readAround, revisit, type Ctx } from './scenario-kit.ts'
import { API_DOCS, VALIDATE_TS, VALIDATION_TESTS } from './scenario-texts.ts'

export function turnApiDocs(ctx: Ctx): void {
  const { s, vfs } = ctx
  s.prompt('Use the api-docs skill to write docs/API.md for the endpoints.')
  s.step({
    text: "I'll load the api-docs skill for its procedure.",
    calls: [skillCall(vfs, 'api-docs')],
  })
  s.step({ calls: [globCall(vfs, 'src/routes/**/*.ts')] })
  s.step({
    text: 'Step 1 of the skill: every route registration, plus every status code the handlers send.',
    calls: [
      grepCall(vfs, 'app\\.(get|post|put|patch|delete)', { path: 'src', mode: 'content' }),
      grepCall(vfs, 'reply\\.code\\(', { path: 'src', mode: 'content' }),
    ],
  })
  s.step({ calls: [readCall(vfs, 'src/routes/todos.ts')] })
  s.step({ calls: [readCall(vfs, 'src/types.ts'), revisit(ctx)] })
  s.step({ calls: [readCall(vfs, 'src/app.ts', { offset: 10, limit: 12 })] })
  s.step({
    thinking:
      'Routes: /health (app.ts), and five todo routes. Errors: 400 invalid_limit/invalid_offset on ' +
      'the list, 404 not_found on get/patch, 404 with an empty body on delete. Order by path then ' +
      'method as the skill asks. No validation module exists yet, so no body constraints to list.',
    calls: [writeCall(vfs, 'docs/API.md', API_DOCS)],
  })
  s.step({
    text: 'Checking that every route has exactly one section:',
    calls: [grepCall(vfs, '^## ', { path: 'docs', mode: 'content' })],
  })
  s.reply(
    'Wrote `docs/API.md` following the api-docs skill: one section per route (`/health` and the five ' +
      '`/todos` routes, ordered by path then method), each with an example request/response and an ' +
      'error table. The status codes match the handlers (checked with a grep for `reply.code`).',
  )
}

const VALIDATION_PLAN = [
  ['Add title validation helper', 'Adding title validation helper'],
  ['Validate POST and PATCH bodies', 'Validating POST and PATCH bodies'],
  ['Add validation tests', 'Adding validation tests'],
] as const

export function turnValidation(ctx: Ctx): void {
  const { s, vfs, todos } = ctx
  s.prompt(
    'Validation is loose. Reject empty or whitespace-only titles and titles longer than 200 ' +
      'characters with a 400 and a helpful error body, for both POST and PATCH.',
  )
  s.step({
    thinking:
      'Today POST coerces a missing title to an empty string and PATCH passes the body straight ' +
      'through. A small validate module keeps the rules in one place and testable; both handlers ' +
      'call it. The error body should say which field and why.',
    calls: [todos.call(planAt(VALIDATION_PLAN, 0))],
  })
  s.step({
    calls: [
      readAround(ctx, 'src/routes/todos.ts', 'app.post', 2, 25),
      grepCall(vfs, 'title', { path: 'src', mode: 'content' }),
      revisit(ctx),
    ],
  })
  s.step({ calls: [writeCall(vfs, 'src/validate.ts', VALIDATE_TS)] })
  s.step({
    calls: [
      todos.call(planAt(VALIDATION_PLAN, 1)),
      edit(
        ctx,
        'src/routes/todos.ts',
        "import type { Db } from '../db.js';",
        "import type { Db } from '../db.js';\nimport { validateTitle } from '../validate.js';",
      ),
    ],
  })
  // From memory rather than from the file: the optional chaining is missing, so it fails.
  s.step({
    calls: [
      editCall(
        vfs,
        'src/routes/todos.ts',
        "    const title = typeof req.body.title === 'string' ? req.body.title : '';\n    const todo = db.createTodo({ title });",
        '    const invalid = validateTitle(req.body.title);\n    if (invalid) return reply.code(400).send(invalid);',
      ),
    ],
  })
  s.step({
    text: 'The handler text differs from what I assumed; re-reading it.',
    calls: [readAround(ctx, 'src/routes/todos.ts', 'app.post', 0, 6)],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/routes/todos.ts',
        "    const title = typeof req.body?.title === 'string' ? req.body.title : '';\n    const todo = db.createTodo({ title });",
        '    const invalid = validateTitle(req.body?.title);\n    if (invalid) return reply.code(400).send(invalid);\n' +
          '    const todo = db.createTodo({ title: (req.body.title as string).trim() });',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/routes/todos.ts',
        '      const todo = db.updateTodo(Number(req.params.id), req.body ?? {});',
        '      if (req.body?.title !== undefined) {\n        const invalid = validateTitle(req.body.title);\n' +
          '        if (invalid) return reply.code(400).send(invalid);\n      }\n' +
          '      const todo = db.updateTodo(Number(req.params.id), req.body ?? {});',
      ),
    ],
  })
  s.injected(
    [
      {
        type: 'text',
        text:
          '<system-reminder>\nThe todo list has not been updated for a while. If it still matches the ' +
          'work, carry on; otherwise update it with TodoWrite. Do not mention this reminder to the user.\n' +
          '</system-reminder>',
      },
    ],
    false,
  )
  const deleteTail =
    "    const res = await ctx.app.inject({ method: 'DELETE', url: '/todos/12345' });\n" +
    '    expect(res.statusCode).toBe(404);\n  });\n});'
  s.step({
    calls: [
      todos.call(planAt(VALIDATION_PLAN, 2)),
      edit(
        ctx,
        'tests/todos.test.ts',
        deleteTail,
        deleteTail + VALIDATION_TESTS.replace(/\n$/, ''),
      ),
    ],
  })
  s.step({ calls: [npmTest(ctx, { only: ['tests/todos.test.ts'], args: 'tests/todos.test.ts' })] })
  s.step({ calls: [todos.call(planAt(VALIDATION_PLAN, 3))] })
  s.reply(
    'Done:\n\n- New `src/validate.ts` with `validateTitle()`: must be a string, non-empty after trimming, ' +
      'at most 200 characters (`TITLE_MAX`).\n- `POST /todos` and `PATCH /todos/:id` (when `title` is ' +
      'sent) return `400 { error: "invalid_body", field: "title", message }`; POST also trims the ' +
      `title.\n- 6 new tests in \`tests/todos.test.ts\`; that file passes (${vfs.testNames('tests/todos.test.ts').length} tests).`,
  )
}
