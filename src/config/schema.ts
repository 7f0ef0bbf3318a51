import { z } from 'zod'

/**
 * Our versioned config file (SPEC §7): one schema is the source of truth for validation in the
 * app, the CLI, and the published JSON Schema. Strategy parameters are validated separately by
 * each strategy's own schema (see `validate.ts`), so this file never needs to know them.
 */
export const CONFIG_VERSION = 1
/**
 * Where the app serves the JSON Schema of this version (public/schema/config-v1.json, which Vite
 * serves from the site root): the `$schema` every exported config points at, so an editor that
 * opened the file from the app resolves it, and no domain of ours is assumed.
 */
export const CONFIG_SCHEMA_URL = '/schema/config-v1.json'

const positiveInt = z.number().int().positive()
const nonNegativeInt = z.number().int().min(0)

export const windowSchema = z
  .object({
    contextTokens: positiveInt.describe('Model context window in tokens.'),
    reservedOutput: nonNegativeInt.describe('Tokens kept free for the reply.'),
    buffer: nonNegativeInt.default(0).describe('Extra safety margin.'),
  })
  .refine((w) => w.reservedOutput + w.buffer < w.contextTokens, {
    message: 'reservedOutput + buffer must leave room in contextTokens',
  })

export const protectionsSchema = z.object({
  system: z.boolean().default(true).describe('Never modify the system prompt.'),
  recentTurns: nonNegativeInt.default(0).describe('Protect the last N real user turns entirely.'),
  pinned: z.array(z.string()).default([]).describe('Message or group ids never modified.'),
  tools: z
    .array(z.string())
    .default([])
    .describe('Tool names whose calls and results are never modified.'),
  pendingCalls: z
    .boolean()
    .default(true)
    .describe('Never remove calls still waiting for a result.'),
  latestThinking: z
    .boolean()
    .default(true)
    .describe('Keep thinking blocks of the latest assistant message byte-identical.'),
})

export const conditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tokens'), over: nonNegativeInt }),
  z.object({ kind: z.literal('window_fraction'), over: z.number().gt(0).lte(1) }),
  z.object({ kind: z.literal('messages'), over: nonNegativeInt }),
  z.object({ kind: z.literal('groups'), over: nonNegativeInt }),
  z.object({ kind: z.literal('turns'), over: nonNegativeInt }),
  z.object({ kind: z.literal('tool_results'), over: nonNegativeInt }),
])

export const triggerSchema = z.object({
  mode: z.enum(['all', 'any']).default('any'),
  conditions: z.array(conditionSchema).min(1),
})

export const targetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tokens'), under: nonNegativeInt }),
  z.object({ kind: z.literal('window_fraction'), under: z.number().gt(0).lte(1) }),
])

export const stepSchema = z.object({
  strategy: z.string().min(1).describe('Strategy id, e.g. supersede-stale-results.'),
  enabled: z.boolean().default(true),
  params: z.record(z.string(), z.unknown()).default({}),
  trigger: triggerSchema.optional(),
  target: targetSchema.optional(),
})

export const fallbackSchema = z.object({
  enabled: z.boolean().default(false),
  strict: z.boolean().default(false),
  target: targetSchema.optional(),
})

export const configSchema = z.object({
  $schema: z.string().optional(),
  version: z.literal(CONFIG_VERSION),
  exporter: z
    .string()
    .optional()
    .describe(
      'Program and version that wrote the file, e.g. "compaction-lab 0.1.0" (informative).',
    ),
  name: z.string().default('custom'),
  description: z.string().default(''),
  tokenizer: z.enum(['o200k_base', 'cl100k_base', 'estimate']).default('o200k_base'),
  window: windowSchema,
  protections: protectionsSchema.default({
    system: true,
    recentTurns: 0,
    pinned: [],
    tools: [],
    pendingCalls: true,
    latestThinking: true,
  }),
  pipeline: z.array(stepSchema),
  fallback: fallbackSchema.default({ enabled: false, strict: false }),
})

/** A validated config with every default filled in. */
export type CompactionConfig = z.output<typeof configSchema>
/** What a user may write (defaults optional). */
export type CompactionConfigInput = z.input<typeof configSchema>
