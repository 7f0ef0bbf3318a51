/**
 * adachsoft's `IdentifierGroupKey`: `{toolName}|{identifierKey}`, where the identifier key is a
 * deterministic string of the configured fields' values (missing → null, configuration order)
 * or the constant `__tool_only__` for tools without a non-empty configuration.
 *
 * The README does not print the identifier string's exact form; we use PHP's `json_encode` of the
 * `[field => value]` array, which is deterministic, keeps the configured order and tells `0` from
 * `"0"`. Only equality of keys matters for the algorithm; the string appears in decision texts.
 */
import {
  phpGet,
  type PhpArray,
  phpJsonEncode,
  phpKey,
  type PhpEntry,
  type PhpKey,
} from './php-json.ts'

export const TOOL_ONLY = '__tool_only__'

/** The identifier part of the key; `args` is null when the arguments are not a PHP array. */
export function identifierKey(args: PhpArray | null, fields: readonly string[]): string {
  if (fields.length === 0) return TOOL_ONLY
  const entries: PhpEntry[] = []
  const seen = new Set<PhpKey>()
  for (const field of fields) {
    const key = phpKey(field)
    if (seen.has(key)) continue
    seen.add(key)
    entries.push([key, (args ? phpGet(args, field) : undefined) ?? null])
  }
  return phpJsonEncode({ kind: 'array', entries }) ?? JSON.stringify(fields)
}

export function groupKey(tool: string, args: PhpArray | null, fields: readonly string[]): string {
  return `${tool}|${identifierKey(args, fields)}`
}

/** What the scan knows about one call. */
export interface CallFacts {
  readonly name: string
  readonly callId: string
  readonly key: string
  readonly identifiers: readonly string[]
  /** The arguments as PHP's `json_decode($argsRaw, true)` sees them, if they are an object. */
  readonly args: PhpArray | null
}

/** A group key for a sentence: long identifier values are cut (the full key is in the data). */
export function showKey(key: string, max = 120): string {
  return key.length <= max ? key : `${key.slice(0, max)}… (${key.length} chars)`
}
