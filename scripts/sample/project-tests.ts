/** The fictional project's tests, config, README and skill (our own content). */

export const HELPERS_TS = `import { buildApp } from '../src/app.js';
import { openDb } from '../src/db.js';

export function createTestApp() {
  const db = openDb(':memory:');
  const app = buildApp({ db, logLevel: process.env.LOG_LEVEL ?? 'silent' });
  return { app, db };
}
`

export const TODOS_TEST_TS = `import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.js';

let ctx: ReturnType<typeof createTestApp>;

beforeEach(() => {
  ctx = createTestApp();
});

afterEach(async () => {
  await ctx.app.close();
  ctx.db.close();
});

describe('GET /todos', () => {
  it('returns an empty list on a fresh database', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/todos' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('lists todos in creation order', async () => {
    ctx.db.createTodo({ title: 'first' });
    ctx.db.createTodo({ title: 'second' });
    const res = await ctx.app.inject({ method: 'GET', url: '/todos' });
    expect(res.json().map((t: { title: string }) => t.title)).toEqual(['first', 'second']);
  });
});

describe('POST /todos', () => {
  it('creates a todo and returns 201', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'buy milk' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: 'buy milk', completed: false });
  });

  it('assigns increasing ids', async () => {
    const a = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'a' } });
    const b = await ctx.app.inject({ method: 'POST', url: '/todos', payload: { title: 'b' } });
    expect(b.json().id).toBeGreaterThan(a.json().id);
  });
});

describe('GET /todos/:id', () => {
  it('returns the todo', async () => {
    const todo = ctx.db.createTodo({ title: 'read docs' });
    const res = await ctx.app.inject({ method: 'GET', url: '/todos/' + todo.id });
    expect(res.json().title).toBe('read docs');
  });

  it('returns 404 for a missing id', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/todos/999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found' });
  });
});

describe('PATCH /todos/:id', () => {
  it('renames a todo', async () => {
    const todo = ctx.db.createTodo({ title: 'old' });
    const res = await ctx.app.inject({ method: 'PATCH', url: '/todos/' + todo.id, payload: { title: 'new' } });
    expect(res.json().title).toBe('new');
  });

  it('toggles completed', async () => {
    const todo = ctx.db.createTodo({ title: 'ship it' });
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/todos/' + todo.id,
      payload: { completed: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().completed).toBe(true);
  });
});

describe('DELETE /todos/:id', () => {
  it('deletes and returns 204', async () => {
    const todo = ctx.db.createTodo({ title: 'temp' });
    const res = await ctx.app.inject({ method: 'DELETE', url: '/todos/' + todo.id });
    expect(res.statusCode).toBe(204);
    expect(ctx.db.getTodo(todo.id)).toBeUndefined();
  });

  it('returns 404 when nothing was deleted', async () => {
    const res = await ctx.app.inject({ method: 'DELETE', url: '/todos/12345' });
    expect(res.statusCode).toBe(404);
  });
});
`

export const HEALTH_TEST_TS = `import { describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.js';

describe('GET /health', () => {
  it('reports ok', async () => {
    const { app, db } = createTestApp();
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ ok: true });
    await app.close();
    db.close();
  });
});
`

export const STRESS_TEST_TS = `import { describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.js';

// Exercises many small requests; quiet unless LOG_LEVEL is raised.
describe('stress', () => {
  it('creates and reads back 500 todos', async () => {
    const { app, db } = createTestApp();
    for (let i = 0; i < 500; i++) {
      await app.inject({ method: 'POST', url: '/todos', payload: { title: 'stress ' + i } });
    }
    const res = await app.inject({ method: 'GET', url: '/todos' });
    expect(res.json()).toHaveLength(500);
    await app.close();
    db.close();
  });
});
`

export const ESLINT_CONFIG = `import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'warn',
    },
  },
);
`

export const README_MD = `# todo-api

A small JSON API for todos, built with Fastify and SQLite (better-sqlite3).

## Running

    npm install
    npm run dev          # http://127.0.0.1:3000

Environment: PORT, HOST, DB_PATH (default data/todos.db), LOG_LEVEL.

## Endpoints

- GET /health
- GET /todos
- POST /todos  { "title": "..." }
- GET /todos/:id
- PATCH /todos/:id  { "title"?: "...", "completed"?: true }
- DELETE /todos/:id

## Tests

    npm test
`

export const SKILL_MD = `---
name: api-docs
description: Write or refresh HTTP API reference docs (docs/API.md) from the route handlers.
allowed-tools: Read, Grep, Glob, Write, Edit
---

# API docs

Produce reference documentation that a client developer can use without reading the code.

## Procedure

1. Find every route registration (app.get/post/put/patch/delete) under src/routes.
2. For each route record: method, path, path params, query params (with defaults and limits),
   request body fields, success status and body shape, and every error status the handler can send.
3. Read the validation code the handler calls; constraints belong in the docs (lengths, ranges).
4. Write docs/API.md with one section per route, ordered by path then method.

## Format

- Title each section "METHOD /path".
- Give one example request and one example response per route, as JSON blocks.
- Errors: a table of status, error code and when it happens.
- Keep prose short; do not document internal helpers.

## Checks before finishing

- Every route found in step 1 appears exactly once.
- Status codes in the docs match the code (grep for reply.code).
- Example bodies are valid JSON.
`
