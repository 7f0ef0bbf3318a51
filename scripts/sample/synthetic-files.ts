/**
 * A bigger fictional code base for the large synthetic transcripts: the sample's todo-api files
 * plus templated service/route/test modules, so reads and greps have varied, realistic text.
 */
import type { Rng } from './prng.ts'
import { INITIAL_FILES } from './project-files.ts'
import { API_DOCS, RATE_LIMIT_TEST_TS, RATE_LIMIT_TS, VALIDATE_TS } from './scenario-texts.ts'

export const NOUNS = [
  'users',
  'projects',
  'labels',
  'comments',
  'attachments',
  'reminders',
  'sessions',
  'audit',
  'search',
  'exports',
  'webhooks',
  'tags',
  'teams',
  'invites',
  'billing',
  'notifications',
  'settings',
  'metrics',
  'jobs',
  'files',
  'boards',
  'sprints',
  'imports',
  'tokens',
] as const

const FIELDS = [
  'name',
  'ownerId',
  'status',
  'priority',
  'color',
  'url',
  'email',
  'role',
  'notes',
  'expiresAt',
  'archived',
  'position',
]
const VERBS = [
  'list',
  'get',
  'create',
  'update',
  'archive',
  'restore',
  'remove',
  'count',
  'search',
  'reorder',
]

const cap = (s: string): string => s[0]?.toUpperCase() + s.slice(1)
const singular = (s: string): string =>
  s.endsWith('ies') ? s.slice(0, -3) + 'y' : s.replace(/s$/, '')

function pickFields(rng: Rng): string[] {
  const n = rng.int(3, 7)
  const out = new Set<string>()
  while (out.size < n) out.add(rng.pick(FIELDS))
  return [...out]
}

function serviceModule(rng: Rng, noun: string): string {
  const T = cap(singular(noun))
  const fields = pickFields(rng)
  const lines = [
    "import type { Database } from 'better-sqlite3';",
    "import { NotFoundError, ValidationError } from '../errors.js';",
    '',
    `export interface ${T} {`,
    '  id: number;',
    ...fields.map(
      (f) =>
        `  ${f}: ${f === 'archived' ? 'boolean' : f === 'position' || f === 'priority' ? 'number' : 'string'};`,
    ),
    '  createdAt: string;',
    '}',
    '',
    `export class ${T}Service {`,
    '  constructor(private readonly db: Database) {}',
  ]
  for (const verb of VERBS.slice(0, rng.int(4, VERBS.length))) {
    const arg =
      verb === 'list' || verb === 'count' ? 'filter: Partial<' + T + '> = {}' : 'id: number'
    lines.push(
      '',
      `  ${verb}${verb === 'list' || verb === 'count' || verb === 'search' ? cap(noun) : T}(${arg}) {`,
    )
    if (verb === 'list' || verb === 'search') {
      lines.push(
        `    const where = Object.keys(filter).map((k) => k + ' = ?').join(' AND ');`,
        `    const sql = 'SELECT * FROM ${noun}' + (where ? ' WHERE ' + where : '') + ' ORDER BY id LIMIT ${rng.int(2, 20) * 10}';`,
        `    return this.db.prepare(sql).all(...Object.values(filter)) as ${T}[];`,
      )
    } else if (verb === 'count') {
      lines.push(
        `    return (this.db.prepare('SELECT COUNT(*) AS n FROM ${noun}').get() as { n: number }).n;`,
      )
    } else {
      lines.push(
        `    const row = this.db.prepare('SELECT * FROM ${noun} WHERE id = ?').get(id) as ${T} | undefined;`,
        `    if (!row) throw new NotFoundError('${singular(noun)}', id);`,
      )
      if (verb !== 'get') {
        const f = rng.pick(fields)
        lines.push(
          `    if (row.${f} === undefined) throw new ValidationError('${f} is required');`,
          `    this.db.prepare('UPDATE ${noun} SET ${f} = ? WHERE id = ?').run(row.${f}, id);`,
        )
      }
      lines.push('    return row;')
    }
    lines.push('  }')
  }
  lines.push('}', '')
  return lines.join('\n')
}

function routeModule(rng: Rng, noun: string): string {
  const T = cap(singular(noun))
  const lines = [
    "import type { FastifyInstance } from 'fastify';",
    `import { ${T}Service } from '../services/${noun}.js';`,
    '',
    `export async function ${singular(noun)}Routes(app: FastifyInstance, opts: { service: ${T}Service }) {`,
    '  const { service } = opts;',
  ]
  lines.push(
    '',
    `  app.get('/${noun}', async (req) => service.list${cap(noun)}(req.query as object));`,
  )
  for (const [method, verb] of [
    ['get', 'get'],
    ['patch', 'update'],
    ['delete', 'remove'],
    ['post', 'archive'],
  ] as const) {
    if (rng.chance(0.25)) continue
    const path = verb === 'archive' ? `/${noun}/:id/archive` : `/${noun}/:id`
    lines.push(
      '',
      `  app.${method}<{ Params: { id: string } }>('${path}', async (req, reply) => {`,
      '    const id = Number(req.params.id);',
      `    if (!Number.isInteger(id)) return reply.code(400).send({ error: 'invalid_id' });`,
      `    return service.${verb}${T}(id);`,
      '  });',
    )
  }
  lines.push('}', '')
  return lines.join('\n')
}

function testModule(rng: Rng, noun: string): string {
  const T = cap(singular(noun))
  const lines = [
    "import { describe, expect, it } from 'vitest';",
    `import { ${T}Service } from '../src/services/${noun}.js';`,
    "import { memoryDb } from './helpers.js';",
    '',
    `describe('${T}Service', () => {`,
  ]
  const cases = [
    'lists nothing on an empty table',
    'throws NotFoundError for a missing id',
    'updates in place',
    'counts rows',
    'archives and restores',
    'filters by status',
    'keeps insertion order',
    'rejects a missing field',
  ]
  for (const c of cases.slice(0, rng.int(3, cases.length))) {
    lines.push(
      `  it('${c}', () => {`,
      `    const service = new ${T}Service(memoryDb());`,
      c.startsWith('throws')
        ? `    expect(() => service.get${T}(${rng.int(100, 999)})).toThrow('${singular(noun)}');`
        : `    expect(service.count${cap(noun)}()).toBe(0);`,
      '  });',
      '',
    )
  }
  lines.push('});', '')
  return lines.join('\n')
}

/** Paths + contents, hottest first (the order the Zipf draws rank them in). */
export function syntheticFiles(rng: Rng): Array<[string, string]> {
  const files: Array<[string, string]> = INITIAL_FILES.filter(
    ([p]) => !p.startsWith('.claude/'),
  ).map(([p, t]) => [p, t])
  files.push(['src/validate.ts', VALIDATE_TS], ['src/middleware/rateLimit.ts', RATE_LIMIT_TS])
  files.push(['tests/rateLimit.test.ts', RATE_LIMIT_TEST_TS], ['docs/API.md', API_DOCS])
  for (const noun of NOUNS) {
    files.push([`src/services/${noun}.ts`, serviceModule(rng, noun)])
    files.push([`src/routes/${noun}.ts`, routeModule(rng, noun)])
    files.push([`tests/${noun}.test.ts`, testModule(rng, noun)])
  }
  // Shuffle deterministically so the hot set mixes original and generated files.
  for (let i = files.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[files[i], files[j]] = [files[j] as [string, string], files[i] as [string, string]]
  }
  return files
}
