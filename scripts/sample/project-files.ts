/**
 * The fictional `todo-api` project the sample session works on (our own content). The session
 * edits these through a virtual file system, so later reads show the edited text.
 */

import {
  ESLINT_CONFIG,
  HEALTH_TEST_TS,
  HELPERS_TS,
  README_MD,
  SKILL_MD,
  STRESS_TEST_TS,
  TODOS_TEST_TS,
} from './project-tests.ts'

export const PROJECT_ROOT = '/home/dev/projects/todo-api'

const PACKAGE_JSON = `{
  "name": "todo-api",
  "version": "0.3.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "DB_PATH=:memory: tsx watch src/server.ts",
    "build": "tsc -p tsconfig.json",
    "start": "node dist/server.js",
    "test": "vitest run",
    "lint": "eslint src tests",
    "typecheck": "tsc --noEmit"
  },
  "dependencies": {
    "better-sqlite3": "^11.3.0",
    "fastify": "^5.1.0"
  },
  "devDependencies": {
    "@types/better-sqlite3": "^7.6.11",
    "@types/node": "^22.9.0",
    "eslint": "^9.14.0",
    "tsx": "^4.19.2",
    "typescript": "^5.6.3",
    "vitest": "^2.1.5"
  }
}
`

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "outDir": "dist",
    "rootDir": ".",
    "skipLibCheck": true
  },
  "include": ["src", "tests"]
}
`

const SERVER_TS = `import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDb } from './db.js';

const config = loadConfig(process.env);
const started = performance.now();

// Demo data makes the API look alive when someone opens it for the first time.
const db = openDb(config.dbPath, { seed: true });
const app = buildApp({ db, logLevel: config.logLevel });

app
  .listen({ port: config.port, host: config.host })
  .then((address) => {
    const ms = Math.round(performance.now() - started);
    app.log.info({ address, ms }, 'todo-api listening');
  })
  .catch((err: unknown) => {
    app.log.error(err, 'failed to start');
    process.exit(1);
  });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => {
      db.close();
      process.exit(0);
    });
  });
}
`

const APP_TS = `import Fastify from 'fastify';
import type { Db } from './db.js';
import { todoRoutes } from './routes/todos.js';

export interface AppOptions {
  db: Db;
  logLevel?: string;
}

export function buildApp({ db, logLevel = 'info' }: AppOptions) {
  const app = Fastify({ logger: { level: logLevel } });

  app.get('/health', async () => ({ ok: true }));
  app.register(todoRoutes, { db });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: 'not_found', path: req.url });
  });

  return app;
}
`

const CONFIG_TS = `export interface Config {
  port: number;
  host: string;
  dbPath: string;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dbPath: env.DB_PATH ?? 'data/todos.db',
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
`

const TYPES_TS = `export interface Todo {
  id: number;
  title: string;
  completed: boolean;
  createdAt: string;
}

export interface NewTodo {
  title: string;
}

export interface TodoPatch {
  title?: string;
  completed?: boolean;
}
`

const DB_TS = `import Database from 'better-sqlite3';
import type { NewTodo, Todo, TodoPatch } from './types.js';

export type Db = ReturnType<typeof openDb>;

interface OpenOptions {
  seed?: boolean;
}

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS todos (',
  '  id INTEGER PRIMARY KEY AUTOINCREMENT,',
  '  title TEXT NOT NULL,',
  '  completed INTEGER NOT NULL DEFAULT 0,',
  "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
  ');',
].join('\\n');

export function openDb(file: string, opts: OpenOptions = {}) {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec(SCHEMA);
  if (opts.seed) seedDemoData(sqlite);

  const insert = sqlite.prepare('INSERT INTO todos (title) VALUES (?)');
  const byId = sqlite.prepare('SELECT id, title, completed, created_at AS createdAt FROM todos WHERE id = ?');
  const all = sqlite.prepare('SELECT id, title, completed, created_at AS createdAt FROM todos ORDER BY id');
  const remove = sqlite.prepare('DELETE FROM todos WHERE id = ?');

  return {
    listTodos(): Todo[] {
      return all.all() as Todo[];
    },

    getTodo(id: number): Todo | undefined {
      return byId.get(id) as Todo | undefined;
    },

    createTodo(input: NewTodo): Todo {
      const info = insert.run(input.title);
      return this.getTodo(Number(info.lastInsertRowid))!;
    },

    updateTodo(id: number, patch: TodoPatch): Todo | undefined {
      const current = this.getTodo(id);
      if (!current) return undefined;
      const next = { ...current, ...patch };
      sqlite
        .prepare('UPDATE todos SET title = ?, completed = ? WHERE id = ?')
        .run(next.title, next.completed ? 1 : 0, id);
      return this.getTodo(id);
    },

    deleteTodo(id: number): boolean {
      return remove.run(id).changes > 0;
    },

    close() {
      sqlite.close();
    },
  };
}

function seedDemoData(sqlite: Database.Database) {
  const row = sqlite.prepare('SELECT COUNT(*) AS n FROM todos').get() as { n: number };
  if (row.n > 0) return;
  const insert = sqlite.prepare('INSERT INTO todos (title, completed) VALUES (?, ?)');
  const fill = sqlite.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run('Demo todo #' + i, i % 3 === 0 ? 1 : 0);
  });
  fill();
}
`

const ROUTES_TS = `import type { FastifyInstance } from 'fastify';
import type { Db } from '../db.js';

interface IdParams {
  id: string;
}

export async function todoRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;

  app.get('/todos', async () => {
    return db.listTodos();
  });

  app.get<{ Params: IdParams }>('/todos/:id', async (req, reply) => {
    const todo = db.getTodo(Number(req.params.id));
    if (!todo) return reply.code(404).send({ error: 'not_found' });
    return todo;
  });

  app.post<{ Body: { title?: unknown } }>('/todos', async (req, reply) => {
    const title = typeof req.body?.title === 'string' ? req.body.title : '';
    const todo = db.createTodo({ title });
    return reply.code(201).send(todo);
  });

  app.patch<{ Params: IdParams; Body: { title?: string; completed?: boolean } }>(
    '/todos/:id',
    async (req, reply) => {
      const todo = db.updateTodo(Number(req.params.id), req.body ?? {});
      if (!todo) return reply.code(404).send({ error: 'not_found' });
      return todo;
    },
  );

  app.delete<{ Params: IdParams }>('/todos/:id', async (req, reply) => {
    const ok = db.deleteTodo(Number(req.params.id));
    return reply.code(ok ? 204 : 404).send();
  });
}
`

/** Initial contents keyed by path relative to the project root. */
export const INITIAL_FILES: ReadonlyArray<readonly [string, string]> = [
  ['package.json', PACKAGE_JSON],
  ['tsconfig.json', TSCONFIG],
  ['eslint.config.js', ESLINT_CONFIG],
  ['README.md', README_MD],
  ['src/server.ts', SERVER_TS],
  ['src/app.ts', APP_TS],
  ['src/config.ts', CONFIG_TS],
  ['src/types.ts', TYPES_TS],
  ['src/db.ts', DB_TS],
  ['src/routes/todos.ts', ROUTES_TS],
  ['tests/helpers.ts', HELPERS_TS],
  ['tests/todos.test.ts', TODOS_TEST_TS],
  ['tests/health.test.ts', HEALTH_TEST_TS],
  ['tests/stress.test.ts', STRESS_TEST_TS],
  ['.claude/skills/api-docs/SKILL.md', SKILL_MD],
]
