/**
 * Test-only validator for the subset of JSON Schema (draft 2020-12) that `configJsonSchema()`
 * uses: type, properties, required, additionalProperties, propertyNames, items, enum, const,
 * minimum, maximum, exclusiveMinimum, minLength, minItems, anyOf, oneOf, allOf, if/then.
 * Any other keyword is an error, so the schema cannot grow a keyword this checker ignores.
 */
import { pushAll } from '../engine/arrays.ts'

type Schema = Record<string, unknown> | boolean

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default'])
const CHECKED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'anyOf',
  'oneOf',
  'allOf',
  'if',
  'then',
])

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v)
    case 'array':
      return Array.isArray(v)
    case 'integer':
      return Number.isInteger(v)
    case 'number':
      return typeof v === 'number' && Number.isFinite(v)
    case 'null':
      return v === null
    default:
      return typeof v === type
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Every violation as `path: message`; empty when `value` is valid. */
export function validateJson(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema === true) return []
  if (schema === false) return [`${path}: not allowed`]
  const errors: string[] = []
  const err = (m: string) => errors.push(`${path}: ${m}`)
  for (const k of Object.keys(schema)) {
    if (!ANNOTATIONS.has(k) && !CHECKED.has(k)) err(`unsupported keyword ${k}`)
  }
  const s = schema as Record<string, unknown>
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]
    if (!types.some((t) => typeOk(t, value))) return [...errors, `${path}: not ${types.join('|')}`]
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => same(e, value))) err('not in enum')
  if (s.const !== undefined && !same(s.const, value)) err(`not ${JSON.stringify(s.const)}`)
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) err(`< ${s.minimum}`)
    if (typeof s.maximum === 'number' && value > s.maximum) err(`> ${s.maximum}`)
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) {
      err(`<= ${s.exclusiveMinimum}`)
    }
  }
  if (typeof value === 'string' && typeof s.minLength === 'number' && value.length < s.minLength) {
    err('too short')
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) err('too few items')
    if (s.items !== undefined) {
      value.forEach((v, i) => pushAll(errors, validateJson(s.items as Schema, v, `${path}[${i}]`)))
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>
    const props = (s.properties ?? {}) as Record<string, Schema>
    for (const r of (s.required ?? []) as string[]) if (!(r in obj)) err(`missing ${r}`)
    for (const [k, v] of Object.entries(obj)) {
      if (s.propertyNames !== undefined) {
        pushAll(errors, validateJson(s.propertyNames as Schema, k, `${path}.${k}(name)`))
      }
      if (k in props) pushAll(errors, validateJson(props[k] as Schema, v, `${path}.${k}`))
      else if (s.additionalProperties !== undefined) {
        pushAll(errors, validateJson(s.additionalProperties as Schema, v, `${path}.${k}`))
      }
    }
  }
  const passes = (sub: Schema) => validateJson(sub, value, path).length === 0
  if (s.allOf)
    for (const sub of s.allOf as Schema[]) pushAll(errors, validateJson(sub, value, path))
  if (s.anyOf && !(s.anyOf as Schema[]).some(passes)) err('matches no anyOf branch')
  if (s.oneOf && (s.oneOf as Schema[]).filter(passes).length !== 1)
    err('matches not exactly one oneOf branch')
  if (s.if !== undefined && passes(s.if as Schema) && s.then !== undefined) {
    pushAll(errors, validateJson(s.then as Schema, value, path))
  }
  return errors
}
