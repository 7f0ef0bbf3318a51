/**
 * Writes the config JSON Schema to `public/schema/config-v1.json`, where Vite serves it at
 * `/schema/config-v1.json` and the repo publishes it (SPEC §7):
 *
 *   npm run schema   (node bin/run-ts.mjs scripts/write-json-schema.ts)
 *
 * The file is formatted with Prettier so `npm run format:check` accepts it as written;
 * `src/config/json-schema.test.ts` fails when it no longer matches the zod schemas.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { configJsonSchema } from '../src/config/json-schema.ts'

export const SCHEMA_FILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../public/schema/config-v1.json',
)

const options = await resolveConfig(SCHEMA_FILE)
const text = await format(JSON.stringify(configJsonSchema()), { ...options, filepath: SCHEMA_FILE })
mkdirSync(dirname(SCHEMA_FILE), { recursive: true })
writeFileSync(SCHEMA_FILE, text)
console.warn(`wrote ${SCHEMA_FILE} (${text.length} bytes)`)
