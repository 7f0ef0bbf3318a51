/**
 * The published JSON Schema of our config file (SPEC §7), generated from the same zod schemas the
 * app and the CLI validate with: `configSchema` for the file, and each strategy's own parameter
 * schema for `params`, selected by the step's `strategy` with `if`/`then`. `npm run schema`
 * writes it to `public/schema/config-v1.json`; a test keeps that file equal to this output.
 */
import { z } from 'zod'
import { STRATEGIES } from '../engine/strategies/index.ts'
import { CONFIG_SCHEMA_URL, CONFIG_VERSION, configSchema } from './schema.ts'

type Json = Record<string, unknown>

/**
 * What a user may write: defaulted fields are optional (`io: 'input'`). Refinements that JSON
 * Schema cannot state (e.g. reservedOutput + buffer < contextTokens) are left to the app.
 */
function toJson(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json
  delete out.$schema
  return closeObjects(out)
}

/**
 * Unknown keys are errors (validateConfig reports them with the nearest valid key), but zod's
 * input-mode JSON Schema leaves objects open because zod itself would strip such keys. Close every
 * object that lists its properties and says nothing about others, so editors flag typos too.
 */
function closeObjects(root: Json): Json {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      for (const n of node) stack.push(n)
      continue
    }
    if (node === null || typeof node !== 'object') continue
    const o = node as Json
    if (o.type === 'object' && o.properties !== undefined && o.additionalProperties === undefined)
      o.additionalProperties = false
    for (const v of Object.values(o)) stack.push(v)
  }
  return root
}

/** One `if strategy = id then params matches its schema` clause per strategy. */
function paramsByStrategy(): Json[] {
  return STRATEGIES.map((s) => ({
    if: { properties: { strategy: { const: s.id } }, required: ['strategy'] },
    then: {
      properties: { params: { description: `${s.label}: ${s.source}.`, ...toJson(s.schema) } },
    },
  }))
}

/** The JSON Schema (draft 2020-12) of config version {@link CONFIG_VERSION}. */
export function configJsonSchema(): Json {
  const root = toJson(configSchema)
  const properties = root.properties as Record<string, Json>
  const pipeline = properties.pipeline as Json
  const step = pipeline.items as Json
  const stepProps = step.properties as Record<string, Json>
  // The registry is the list of valid ids; validateConfig rejects any other.
  stepProps.strategy = { ...stepProps.strategy, enum: STRATEGIES.map((s) => s.id) }
  step.allOf = paramsByStrategy()
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CONFIG_SCHEMA_URL,
    title: `Compaction Lab config, version ${CONFIG_VERSION}`,
    description:
      'A context-compaction policy for Compaction Lab: the model window, what is never touched, an ordered ' +
      'pipeline of strategies with triggers and targets, and an optional final fallback. Each step’s params are ' +
      'checked against the schema of its strategy.',
    ...root,
  }
}
