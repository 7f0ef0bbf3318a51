/** Files the assistant writes during the sample session (our own fictional code and docs). */

export const API_DOCS = `# todo-api HTTP reference

All bodies are JSON. Errors always have an \`error\` code; validation errors add \`field\` and \`message\`.

## GET /health

Liveness probe.

    200 { "ok": true }

## GET /todos

List todos, oldest first, one page at a time.

| Query  | Type    | Default | Notes                      |
|--------|---------|---------|----------------------------|
| limit  | integer | 20      | 1–100                      |
| offset | integer | 0       | number of items to skip    |

Example: \`GET /todos?limit=2&offset=0\`

    200 {
      "items": [
        { "id": 1, "title": "buy milk", "completed": false, "createdAt": "2026-03-14T09:20:11.482Z" },
        { "id": 2, "title": "call the plumber", "completed": true, "createdAt": "2026-03-14T09:21:40.007Z" }
      ],
      "total": 37
    }

| Status | error          | When                          |
|--------|----------------|-------------------------------|
| 400    | invalid_limit  | limit not an integer in 1–100 |
| 400    | invalid_offset | offset negative or not an int |

## POST /todos

Create a todo.

    POST /todos
    { "title": "buy milk" }

    201 { "id": 38, "title": "buy milk", "completed": false, "createdAt": "2026-03-14T10:02:54.120Z" }

## GET /todos/:id

    200 { "id": 1, "title": "buy milk", "completed": false, "createdAt": "2026-03-14T09:20:11.482Z" }

| Status | error     | When              |
|--------|-----------|-------------------|
| 404    | not_found | no todo with id   |

## PATCH /todos/:id

Partial update; send only the fields to change.

    PATCH /todos/1
    { "completed": true }

    200 { "id": 1, "title": "buy milk", "completed": true, "createdAt": "2026-03-14T09:20:11.482Z" }

| Status | error     | When              |
|--------|-----------|-------------------|
| 404    | not_found | no todo with id   |

## DELETE /todos/:id

    204 (no body)

| Status | error | When                          |
|--------|-------|-------------------------------|
| 404    | —     | nothing deleted (empty body)  |
`

export const VALIDATE_TS = `export const TITLE_MAX = 200;

export interface ValidationError {
  error: 'invalid_body';
  field: string;
  message: string;
}

export function validateTitle(value: unknown): ValidationError | null {
  if (typeof value !== 'string') {
    return { error: 'invalid_body', field: 'title', message: 'title must be a string' };
  }
  if (value.trim().length === 0) {
    return { error: 'invalid_body', field: 'title', message: 'title must not be empty' };
  }
  if (value.length > TITLE_MAX) {
    return {
      error: 'invalid_body',
      field: 'title',
      message: 'title must be at most ' + TITLE_MAX + ' characters',
    };
  }
  return null;
}
`

export const DUE_DATE_VALIDATOR = `
const DATE_RE = /^\\d{4}-\\d{2}-\\d{2}$/;

// Accept only calendar dates; times and time zones are out of scope for a todo list.
export function validateDueDate(value: unknown): ValidationError | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !DATE_RE.test(value) || Number.isNaN(Date.parse(value))) {
    return { error: 'invalid_body', field: 'dueDate', message: 'dueDate must be a YYYY-MM-DD date' };
  }
  return null;
}
`

export const VALIDATION_TESTS = `

describe('validation', () => {
  it('rejects an empty title on POST', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: '   ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_body', field: 'title' });
  });

  it('rejects a 201-character title on POST', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'x'.repeat(201) } });
    expect(res.statusCode).toBe(400);
  });

  it('accepts a 200-character title', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'x'.repeat(200) } });
    expect(res.statusCode).toBe(201);
  });

  it('rejects a non-string title', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 42 } });
    expect(res.json().message).toBe('title must be a string');
  });

  it('rejects an empty title on PATCH', async () => {
    const todo = ctx.db.createTodo({ title: 'keep me' });
    const res = await ctx.app.inject({ method: 'PATCH', url: '/todos/' + todo.id, payload: { title: '' } });
    expect(res.statusCode).toBe(400);
    expect(ctx.db.getTodo(todo.id)?.title).toBe('keep me');
  });

  it('trims surrounding whitespace', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: '  tidy  ' } });
    expect(res.json().title).toBe('tidy');
  });
});
`

export const DUE_DATE_TESTS = `

describe('dueDate', () => {
  it('stores an optional dueDate', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/todos',
      payload: { title: 'file taxes', dueDate: '2026-04-15' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().dueDate).toBe('2026-04-15');
  });

  it('defaults dueDate to null', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'someday' } });
    expect(res.json().dueDate).toBeNull();
  });

  it('rejects a malformed dueDate', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/todos',
      payload: { title: 'x', dueDate: '04/15/2026' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('dueDate');
  });

  it('sorts by dueDate with nulls last', async () => {
    ctx.db.createTodo({ title: 'none' });
    ctx.db.createTodo({ title: 'late', dueDate: '2026-09-01' });
    ctx.db.createTodo({ title: 'soon', dueDate: '2026-03-20' });
    const res = await ctx.app.inject({ method: 'GET', url: '/todos?sort=dueDate' });
    expect(res.json().items.map((t: { title: string }) => t.title)).toEqual(['soon', 'late', 'none']);
  });

  it('rejects an unknown sort key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/todos?sort=title' });
    expect(res.statusCode).toBe(400);
  });
});
`

export const RATE_LIMIT_TS = `import type { FastifyInstance } from 'fastify';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Injectable clock so tests need no timers. */
  now?: () => number;
}

interface Bucket {
  count: number;
  resetAt: number;
}

// Fixed window per IP: no dependencies and good enough for a single process.
export function rateLimit(app: FastifyInstance, opts: RateLimitOptions) {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  app.addHook('onRequest', async (req, reply) => {
    const t = now();
    let bucket = buckets.get(req.ip);
    if (!bucket || bucket.resetAt <= t) {
      bucket = { count: 0, resetAt: t + opts.windowMs };
      buckets.set(req.ip, bucket);
    }
    if (bucket.count > opts.max) {
      const retryAfter = Math.ceil((bucket.resetAt - t) / 1000);
      return reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .send({ error: 'rate_limited', retryAfter });
    }
    bucket.count++;
  });
}
`

export const RATE_LIMIT_TEST_TS = `import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDb } from '../src/db.js';

function appWithClock(max: number) {
  let t = 1_000_000;
  const db = openDb(':memory:');
  const app = buildApp({ db, logLevel: 'silent', rateLimit: { max, windowMs: 60_000, now: () => t } });
  return { app, db, advance: (ms: number) => (t += ms) };
}

describe('rate limit', () => {
  it('allows up to max requests per window', async () => {
    const { app } = appWithClock(3);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('returns 429 with Retry-After once the limit is hit', async () => {
    const { app } = appWithClock(3);
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/health' });
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
  });

  it('resets after the window passes', async () => {
    const { app, advance } = appWithClock(1);
    await app.inject({ method: 'GET', url: '/health' });
    advance(60_000);
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
  });

  it('counts each IP separately', async () => {
    const { app } = appWithClock(1);
    await app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.1' });
    const res = await app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.2' });
    expect(res.statusCode).toBe(200);
  });
});
`
