/** Turns 9–10: slow startup investigation and a rate limiter with tests. */
import { bashCall, globCall, grepCall, readCall, writeCall } from './tools.ts'
import { edit, npmTest, planAt, readAround, revisit, testCount, type Ctx } from './scenario-kit.ts'
import { RATE_LIMIT_TEST_TS, RATE_LIMIT_TS } from './scenario-texts.ts'

/** Startup log of the dev server as pino prints it; `ms` is the boot time it reports. */
function bootLog(ctx: Ctx, runs: ReadonlyArray<readonly [string, number]>): string {
  const lines: string[] = []
  let t = ctx.s.now()
  for (const [label, ms] of runs) {
    const pid = ctx.rng.int(50_000, 59_999)
    const head = `{"level":30,"time":${(t += ms)},"pid":${pid},"hostname":"devbox"`
    lines.push(`--- ${label}`)
    lines.push(`${head},"msg":"Server listening at http://127.0.0.1:3000"}`)
    lines.push(`${head},"address":"http://127.0.0.1:3000","ms":${ms},"msg":"todo-api listening"}`)
    lines.push(
      `{"level":30,"time":${(t += 5_000)},"pid":${pid},"hostname":"devbox","signal":"SIGTERM","msg":"shutting down"}`,
    )
  }
  return lines.join('\n')
}

const BOOT_CMD = (env: string): string =>
  `${env} LOG_LEVEL=debug timeout -s TERM 5 npx tsx src/server.ts; true`

export function turnSlowStartup(ctx: Ctx): void {
  const { s, vfs } = ctx
  s.prompt(
    "Startup feels slow locally — a couple of seconds before it's listening, every time I save. " +
      "Can you find out what it's doing on boot?",
  )
  s.step({
    thinking:
      '"Every time I save" means tsx watch restarts. Boot is: load config, open the DB, build the ' +
      'app, listen. Read those three entry points together, then measure instead of guessing.',
    calls: [
      readCall(vfs, 'src/server.ts'),
      readCall(vfs, 'src/config.ts'),
      readCall(vfs, 'package.json'),
    ],
  })
  s.step({
    text: 'The dev script uses an in-memory database, so every restart starts empty. Measuring a boot:',
    calls: [
      bashCall(
        BOOT_CMD('DB_PATH=:memory:'),
        'Time one dev-style boot',
        bootLog(ctx, [['DB_PATH=:memory:', 1874]]),
        { ms: 5_600 },
      ),
    ],
  })
  s.step({
    calls: [
      readAround(ctx, 'src/db.ts', 'function seedDemoData', 1, 12),
      grepCall(vfs, 'seed', { path: 'src', mode: 'content' }),
    ],
  })
  s.step({ calls: [revisit(ctx)] })
  s.step({
    thinking:
      'There it is: server.ts always passes seed: true, and with :memory: the table is always empty, ' +
      'so each restart inserts 5000 rows before listen. better-sqlite3 is synchronous, so that time ' +
      'blocks startup entirely. Make seeding opt-in via SEED_DEMO=1 in config.',
    calls: [
      edit(
        ctx,
        'src/config.ts',
        '  logLevel: string;\n}',
        '  logLevel: string;\n  /** Fill an empty database with demo rows (SEED_DEMO=1). */\n  seedDemo: boolean;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/config.ts',
        "    logLevel: env.LOG_LEVEL ?? 'info',\n",
        "    logLevel: env.LOG_LEVEL ?? 'info',\n    seedDemo: env.SEED_DEMO === '1',\n",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/server.ts',
        '// Demo data makes the API look alive when someone opens it for the first time.\nconst db = openDb(config.dbPath, { seed: true });',
        '// Demo data is opt-in: seeding 5000 rows on every restart made dev boots slow.\nconst db = openDb(config.dbPath, { seed: config.seedDemo });',
      ),
    ],
  })
  const both = bootLog(ctx, [
    ['DB_PATH=:memory:', 143],
    ['DB_PATH=:memory: SEED_DEMO=1', 1791],
  ])
  s.step({
    calls: [
      bashCall(
        `${BOOT_CMD('DB_PATH=:memory:')}; ${BOOT_CMD('DB_PATH=:memory: SEED_DEMO=1')}`,
        'Time a boot with and without demo seeding',
        both,
        { ms: 11_200 },
      ),
    ],
  })
  s.reply(
    'Found it: **every boot seeded 5000 demo rows**. `server.ts` always called `openDb(..., { seed: true })`, ' +
      'and since `npm run dev` uses `DB_PATH=:memory:`, the table is empty on each restart, so each ' +
      'save paid for 5000 synchronous inserts before `listen` (~1.9 s).\n\n' +
      'Seeding is now opt-in: `SEED_DEMO=1` (new `seedDemo` in `config.ts`). Boot is down to ~140 ms; ' +
      'with `SEED_DEMO=1` it behaves as before.',
  )
}

const RL_PLAN = [
  ['Write the rate limit hook', 'Writing the rate limit hook'],
  ['Wire it into buildApp with an off switch', 'Wiring it into buildApp'],
  ['Tests with an injectable clock', 'Writing tests with an injectable clock'],
  ['Run the full suite', 'Running the full suite'],
] as const

export function turnRateLimit(ctx: Ctx): void {
  const { s, vfs, todos } = ctx
  s.prompt(
    'Add a simple in-memory rate limiter: 100 requests per minute per IP, 429 with a Retry-After header. Include tests.',
  )
  s.step({
    thinking:
      'No dependency needed: a fixed window per IP in an onRequest hook. Make the clock injectable ' +
      'so tests do not sleep, and let buildApp disable it — the stress test alone sends 500 requests.',
    calls: [todos.call(planAt(RL_PLAN, 0)), globCall(vfs, 'src/**/*.ts')],
  })
  s.step({ calls: [readCall(vfs, 'src/app.ts'), revisit(ctx)] })
  s.step({
    text: 'Checking for existing hooks first:',
    calls: [grepCall(vfs, 'addHook|onRequest', { path: 'src' })],
  })
  s.step({ calls: [writeCall(vfs, 'src/middleware/rateLimit.ts', RATE_LIMIT_TS)] })
  s.step({
    calls: [
      todos.call(planAt(RL_PLAN, 1)),
      edit(
        ctx,
        'src/app.ts',
        "import { todoRoutes } from './routes/todos.js';",
        "import { rateLimit, type RateLimitOptions } from './middleware/rateLimit.js';\nimport { todoRoutes } from './routes/todos.js';",
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/app.ts',
        '  db: Db;\n  logLevel?: string;\n}',
        '  db: Db;\n  logLevel?: string;\n  /** Per-IP limits; false turns the limiter off (tests). */\n  rateLimit?: RateLimitOptions | false;\n}',
      ),
    ],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'src/app.ts',
        "export function buildApp({ db, logLevel = 'info' }: AppOptions) {\n  const app = Fastify({ logger: { level: logLevel } });\n",
        'const DEFAULT_LIMITS: RateLimitOptions = { max: 100, windowMs: 60_000 };\n\n' +
          "export function buildApp({ db, logLevel = 'info', rateLimit: limits = DEFAULT_LIMITS }: AppOptions) {\n" +
          '  const app = Fastify({ logger: { level: logLevel } });\n  if (limits) rateLimit(app, limits);\n',
      ),
    ],
  })
  s.step({
    calls: [
      todos.call(planAt(RL_PLAN, 2)),
      writeCall(vfs, 'tests/rateLimit.test.ts', RATE_LIMIT_TEST_TS),
    ],
  })
  const only = { only: ['tests/rateLimit.test.ts'], args: 'tests/rateLimit.test.ts' }
  s.step({
    calls: [
      npmTest(ctx, {
        ...only,
        failures: [
          {
            test: 'rate limit > returns 429 with Retry-After once the limit is hit',
            file: 'tests/rateLimit.test.ts',
            needle: 'toBe(429)',
            error: 'AssertionError: expected 200 to be 429 // Object.is equality',
            diff: ['- Expected', '+ Received', '', '- 429', '+ 200'],
          },
        ],
      }),
    ],
  })
  s.step({
    thinking:
      'Off by one: the check runs before the increment and uses >, so with max 3 the fourth request ' +
      'sees count 3 and passes. Comparing with >= before incrementing allows exactly max.',
    calls: [
      edit(
        ctx,
        'src/middleware/rateLimit.ts',
        '    if (bucket.count > opts.max) {',
        '    if (bucket.count >= opts.max) {',
      ),
    ],
  })
  s.step({ calls: [npmTest(ctx, only)] })
  s.step({
    calls: [
      todos.call(planAt(RL_PLAN, 3)),
      npmTest(ctx, {
        failures: [
          {
            test: 'stress > creates and reads back 500 todos',
            file: 'tests/stress.test.ts',
            needle: 'toBe(500)',
            error: 'AssertionError: expected undefined to be 500 // Object.is equality',
            diff: ['- Expected', '+ Received', '', '- 500', '+ undefined'],
          },
        ],
      }),
    ],
  })
  s.step({
    text: 'As expected, the stress test now hits the default limiter. The shared test helper should turn it off:',
    calls: [readCall(vfs, 'tests/helpers.ts')],
  })
  s.step({
    calls: [
      edit(
        ctx,
        'tests/helpers.ts',
        "  const app = buildApp({ db, logLevel: process.env.LOG_LEVEL ?? 'silent' });",
        '  // The limiter has its own tests; elsewhere it would only make request-heavy tests flaky.\n' +
          "  const app = buildApp({ db, logLevel: process.env.LOG_LEVEL ?? 'silent', rateLimit: false });",
      ),
    ],
  })
  s.step({ calls: [npmTest(ctx)] })
  s.step({ calls: [todos.call(planAt(RL_PLAN, 4))] })
  s.reply(
    `Rate limiting is in; all ${testCount(ctx)} tests pass.\n\n` +
      '- `src/middleware/rateLimit.ts`: fixed one-minute window per `req.ip`; over the limit → `429 ' +
      '{ error: "rate_limited", retryAfter }` with a `Retry-After` header (seconds).\n' +
      '- `buildApp` applies it by default (100/min); `rateLimit: false` disables it, which the shared ' +
      'test helper now does so request-heavy tests are unaffected.\n' +
      '- `tests/rateLimit.test.ts` (4 tests) uses an injected clock, so no sleeping. Writing them caught ' +
      'an off-by-one that let `max + 1` requests through.\n\nIt is per process and in memory: behind ' +
      'several instances you would want a shared store.',
  )
}
