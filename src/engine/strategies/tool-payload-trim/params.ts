/** Parameters of `tool-payload-trim`: adachsoft's `ToolCompactionStrategyParams` plus `faithful`. */
import { z } from 'zod'

const bytes = (name: string) =>
  z
    .number({ error: `${name} must be a number of bytes` })
    .int(`${name} must be a whole number of bytes`)
    .min(0, `${name} must be 0 or more bytes`)
    .default(100)

export const toolPayloadTrimSchema = z
  .object({
    /** Argument fields over this many bytes are omitted (adachsoft default 100). */
    inputTrimBytes: bytes('inputTrimBytes'),
    /** Result fields over this many bytes are omitted (adachsoft default 100). */
    outputTrimBytes: bytes('outputTrimBytes'),
    /** Tools never compacted, input or output (exact names). */
    excludedTools: z
      .array(z.string(), { error: 'excludedTools must be a list of tool names' })
      .default([]),
    /** tool → top-level argument keys that identify the operation; never trimmed. */
    toolIdentifierFields: z
      .record(z.string(), z.array(z.string()), {
        error: 'toolIdentifierFields must map tool names to lists of argument keys',
      })
      .default({}),
    /**
     * Reproduce adachsoft exactly where it misbehaves: treat its own `_tool_compaction` meta as an
     * ordinary field on a second pass, and apply trims that make the part bigger.
     */
    faithful: z.boolean().default(false),
  })
  .strict()

export type ToolPayloadTrimParams = z.infer<typeof toolPayloadTrimSchema>

export const FIX_META =
  'adachsoft would treat the earlier _tool_compaction meta as an ordinary field: trim it and overwrite it, losing the record of the first pass'
export const FIX_GROWTH =
  'adachsoft would apply it anyway: "[omitted]" plus the _tool_compaction meta (a 64-digit sha256 per field) can be bigger than the field it replaces'
