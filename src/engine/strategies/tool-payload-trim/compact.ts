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

/**
 * What a decoded array's fields are whatever the params: key, size, whether it is the meta or an
 * `"[omitted]"` the meta lists, and (once a threshold puts it over) its `json_encode` and hash.
 * Decoded arrays are one value per (immutable) part, so an edit of a threshold — every keystroke
 * in the app — no longer re-sizes, re-encodes and re-hashes every field of the conversation.
 */
interface FieldMeasure {
  readonly key: string
  readonly value: PhpValue
  readonly bytes: number
  readonly meta: boolean
  readonly listed: boolean
  /** `json_encode` of the value (null: PHP fails) and its SHA-256; undefined until asked. */
  json: string | null | undefined
  sha256: string | undefined
}

interface Measured {
  readonly fields: readonly FieldMeasure[]
  /** Plans by outcome per field (see planCompaction): equal outcomes, the same plan object. */
  readonly plans: Map<string, CompactionPlan>
}

const measured = new WeakMap<PhpArray, Measured>()
/** Plans kept per array (one per distinct outcome; a threshold edit makes a few). */
const MAX_PLANS = 16

function measuredOf(array: PhpArray): Measured {
  let m = measured.get(array)
  if (m) return m
  const meta = phpGet(array, META_KEY)
  const listed =
    meta && typeof meta === 'object' && meta.kind === 'array'
      ? phpGet(meta, 'omittedFields')
      : undefined
  const fields: FieldMeasure[] = []
  for (const [k, value] of array.entries) {
    const key = String(k)
    fields.push({
      key,
      value,
      bytes: payloadSize(value),
      meta: key === META_KEY,
      listed:
        value === OMITTED &&
        !!listed &&
        typeof listed === 'object' &&
        listed.kind === 'array' &&
        phpGet(listed, key) !== undefined,
      json: undefined,
      sha256: undefined,
    })
  }
  m = { fields, plans: new Map() }
  measured.set(array, m)
  return m
}

/** What planCompaction does with one field: i(dentifier) m(eta) a(lready) e(ncode failed) o s. */
function outcome(f: FieldMeasure, options: PlanOptions): string {
  if (options.identifierFields.includes(f.key)) return 'i'
  if (options.skipCompacted && f.meta) return 'm'
  if (options.skipCompacted && f.listed) return 'a'
  if (f.bytes > options.thresholdBytes && f.bytes > 0) {
    if (f.json === undefined) f.json = phpJsonEncode(f.value)
    return f.json === null ? 'e' : 'o'
  }
  return 's'
}

const WHY: Readonly<Record<string, KeptWhy>> = {
  i: 'identifier',
  m: 'meta',
  a: 'already_compacted',
  e: 'encode_failed',
  s: 'small',
}

/**
 * Which top-level fields `compactInput` / `compactOutput` would omit, in key order. A plan is a
 * function of each field's outcome, so arrays keep one plan per outcome string: thresholds that
 * omit the same fields share one plan object (and the sentences worded from it).
 */
export function planCompaction(array: PhpArray, options: PlanOptions): CompactionPlan {
  const m = measuredOf(array)
  let outcomes = ''
  for (const f of m.fields) outcomes += outcome(f, options)
  const hit = m.plans.get(outcomes)
  if (hit) return hit
  const omitted: OmittedField[] = []
  const kept: KeptField[] = []
  for (let i = 0; i < m.fields.length; i++) {
    const f = m.fields[i] as FieldMeasure
    const o = outcomes.charAt(i)
    if (o === 'o')
      omitted.push({ key: f.key, bytes: f.bytes, sha256: (f.sha256 ??= sha256(f.json ?? '')) })
    else kept.push({ key: f.key, bytes: f.bytes, why: WHY[o] as KeptWhy })
  }
  const plan = { omitted, kept }
  if (m.plans.size >= MAX_PLANS) m.plans.clear()
  m.plans.set(outcomes, plan)
  return plan
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
  // Any other key: assignment makes or updates the same own, enumerable, writable, configurable
  // property in the same place (the object is a plain copy; no setter on the way but __proto__'s)
  // and is much cheaper than defineProperty, which ran for every field of every trim.
  if (key !== '__proto__') {
    target[key] = value
    return
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}
