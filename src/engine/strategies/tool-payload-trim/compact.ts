/**
 * adachsoft's `PayloadSizer` and `PayloadCompactor::compactInput/compactOutput`, over the PHP
 * values of `php-json.ts`: which top-level fields are over the byte threshold, with the `bytes`
 * and `sha256` the `_tool_compaction` meta records for each.
 */
import { phpFloatToString } from './php-number.ts'
import { phpGet, phpJsonEncode, type PhpArray, type PhpValue } from './php-json.ts'
import { sha256, utf8Length } from './sha256.ts'

/** The placeholder value of an omitted field. */
export const OMITTED = '[omitted]'
/** The meta key added next to the omitted fields. */
export const META_KEY = '_tool_compaction'

/**
 * `PayloadSizer::size`: strings → `strlen` (UTF-8 bytes of the raw string, not of its JSON),
 * null/bool/int/float → `strlen((string) $value)` (null and false are 0, true is 1, floats as
 * PHP 8 prints them), arrays → `strlen(json_encode($value))` (0 when encoding fails).
 */
export function payloadSize(value: PhpValue): number {
  if (value === null || value === false) return 0
  if (value === true) return 1
  if (typeof value === 'string') return utf8Length(value)
  if (value.kind === 'int') return value.value.toString().length
  if (value.kind === 'float') return phpFloatToString(value.value).length
  return phpJsonEncode(value)?.length ?? 0
}

export interface OmittedField {
  readonly key: string
  readonly bytes: number
  /** `hash('sha256', json_encode($originalValue))`. */
  readonly sha256: string
}

export type KeptWhy = 'identifier' | 'already_compacted' | 'meta' | 'encode_failed' | 'small'

export interface KeptField {
  readonly key: string
  readonly bytes: number
  readonly why: KeptWhy
}

export interface CompactionPlan {
  readonly omitted: readonly OmittedField[]
  readonly kept: readonly KeptField[]
}

export interface PlanOptions {
  readonly thresholdBytes: number
  /** Top-level keys never trimmed (inputs only; outputs have none). */
  readonly identifierFields: readonly string[]
  /**
   * Skip our own earlier work: the `_tool_compaction` key and fields already `"[omitted]"` that it
   * lists. adachsoft treats the meta as an ordinary field (faithful mode): a second pass trims it
   * and overwrites it, losing the first pass's record.
   */
  readonly skipCompacted: boolean
}

/** Which top-level fields `compactInput` / `compactOutput` would omit, in key order. */
export function planCompaction(array: PhpArray, options: PlanOptions): CompactionPlan {
  const identifiers = new Set(options.identifierFields)
  const meta = phpGet(array, META_KEY)
  const listed =
    meta && typeof meta === 'object' && meta.kind === 'array'
      ? phpGet(meta, 'omittedFields')
      : undefined
  const omitted: OmittedField[] = []
  const kept: KeptField[] = []
  for (const [k, value] of array.entries) {
    const key = String(k)
    const bytes = payloadSize(value)
    if (identifiers.has(key)) kept.push({ key, bytes, why: 'identifier' })
    else if (options.skipCompacted && key === META_KEY) kept.push({ key, bytes, why: 'meta' })
    else if (
      options.skipCompacted &&
      value === OMITTED &&
      listed &&
      typeof listed === 'object' &&
      listed.kind === 'array' &&
      phpGet(listed, key) !== undefined
    )
      kept.push({ key, bytes, why: 'already_compacted' })
    else if (bytes > options.thresholdBytes && bytes > 0) {
      const json = phpJsonEncode(value)
      if (json === null) kept.push({ key, bytes, why: 'encode_failed' })
      else omitted.push({ key, bytes, sha256: sha256(json) })
    } else kept.push({ key, bytes, why: 'small' })
  }
  return { omitted, kept }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The compacted JS object: omitted fields become `"[omitted]"` and the `_tool_compaction` meta
 * (`thresholdBytes`, `omittedFields: {key: {bytes, sha256}}`) is set last — or in place when the
 * key already exists, as a PHP assignment would. With `mergeMeta`, fields an earlier pass
 * recorded stay recorded.
 */
export function applyPlan(
  original: JsonObject,
  plan: CompactionPlan,
  thresholdBytes: number,
  mergeMeta: boolean,
): JsonObject {
  const out: JsonObject = { ...original }
  const fields: JsonObject = {}
  const previous = original[META_KEY]
  if (mergeMeta && isJsonObject(previous) && isJsonObject(previous['omittedFields']))
    for (const [k, v] of Object.entries(previous['omittedFields'])) setOwn(fields, k, v)
  for (const f of plan.omitted) {
    setOwn(out, f.key, OMITTED)
    setOwn(fields, f.key, { bytes: f.bytes, sha256: f.sha256 })
  }
  setOwn(out, META_KEY, { thresholdBytes, omittedFields: fields })
  return out
}

/** Plain assignment, but safe for a key named `__proto__` (which JSON.parse makes an own key). */
function setOwn(target: JsonObject, key: string, value: Json): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}
