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

/**
 * The user's figures for what the log does not show (usage reconciliation): they replace the
 * fitted ones for every call, so a config tuned on one session carries them to production runs.
 */
export const accountingSchema = z
  .object({
    prefixTokens: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Hidden prefix in tokens: system prompt and tool schemas the agent sends but the log does not hold. Omit to fit it on the reported usage.',
      ),
    scale: z
      .number()
      .gt(0.25)
      .lt(4)
      .optional()
      .describe(
        "Provider tokens per token of our count (the provider's tokenizer differs from ours). Omit to fit it.",
      ),
  })
  .strict()

const perMillion = (what: string) =>
  z.number().min(0).lt(10_000).optional().describe(`USD per million ${what}.`)

/**
 * Prices and cache settings for the cost figures: each figure replaces the price table's (matched
 * to the transcript's model id), so a negotiated rate or an unlisted model is priced right.
 */
export const pricingSchema = z
  .object({
    input: perMillion('uncached input tokens'),
    cacheWrite5m: perMillion('tokens written to the cache with a 5-minute TTL'),
    cacheWrite1h: perMillion('tokens written to the cache with a 1-hour TTL'),
    cacheRead: perMillion('tokens read from the cache'),
    output: perMillion('output tokens'),
    cacheTtl: z
      .enum(['5m', '1h'])
      .optional()
      .describe("TTL of the agent's cache breakpoints (Anthropic); default 5m."),
    caching: z
      .enum(['auto', 'on', 'off'])
      .optional()
      .describe(
        "Prompt caching: auto (the provider's, unless the transcript reports no cache read at all), on or off.",
      ),
  })
  .strict()

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
  accounting: accountingSchema.optional(),
  pricing: pricingSchema.optional(),
})

/** A validated config with every default filled in. */
export type CompactionConfig = z.output<typeof configSchema>
/** What a user may write (defaults optional). */
export type CompactionConfigInput = z.input<typeof configSchema>
