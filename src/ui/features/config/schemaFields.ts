/**
 * JSON Schema (as zod's `toJSONSchema` writes it for the strategies and the config) → the form
 * fields the editor renders. Only the shapes our schemas use are understood; anything else
 * becomes a small JSON box for that one field, so a new kind of parameter never breaks the form.
 */
import { isRecord } from '../../../store/index.ts'

export type FieldDescriptor =
  | {
      readonly kind: 'number'
      readonly integer: boolean
      readonly nullable: boolean
      readonly min?: number
      readonly max?: number
      readonly exclusiveMin?: number
      readonly exclusiveMax?: number
    }
  | { readonly kind: 'boolean'; readonly nullable: boolean }
  | { readonly kind: 'enum'; readonly options: readonly string[]; readonly nullable: boolean }
  | { readonly kind: 'string'; readonly minLength: number; readonly nullable: boolean }
  /** An array of strings, edited as a comma-separated list; `options` when the items are an enum. */
  | { readonly kind: 'stringList'; readonly options: readonly string[] | null }
  | { readonly kind: 'object'; readonly fields: readonly FieldSpec[] }
  | { readonly kind: 'json' }

/** One property of an object schema. */
export interface FieldSpec {
  readonly key: string
  readonly field: FieldDescriptor
  readonly required: boolean
  readonly description: string
  readonly hasDefault: boolean
  readonly defaultValue: unknown
}

// zod writes `.int()` bounds as ±MAX_SAFE_INTEGER: not a limit worth showing.
function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined
}

function stringArray(value: unknown): readonly string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null
}

function enumOf(schema: Record<string, unknown>): readonly string[] | null {
  if (typeof schema.const === 'string') return [schema.const]
  return stringArray(schema.enum)
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null'
}

function scalar(schema: Record<string, unknown>, nullable: boolean): FieldDescriptor {
  const options = enumOf(schema)
  if (options && (schema.type === 'string' || schema.type === undefined)) {
    return { kind: 'enum', options, nullable }
  }
  switch (schema.type) {
    case 'integer':
    case 'number': {
      return {
        kind: 'number',
        integer: schema.type === 'integer',
        nullable,
        min: bound(schema.minimum),
        max: bound(schema.maximum),
        exclusiveMin: bound(schema.exclusiveMinimum),
        exclusiveMax: bound(schema.exclusiveMaximum),
      }
    }
    case 'boolean':
      return { kind: 'boolean', nullable }
    case 'string':
      return {
        kind: 'string',
        minLength: typeof schema.minLength === 'number' ? schema.minLength : 0,
        nullable,
      }
    case 'array': {
      const items = isRecord(schema.items) ? schema.items : null
      if (nullable || !items || items.type !== 'string') return { kind: 'json' }
      return { kind: 'stringList', options: enumOf(items) }
    }
    case 'object': {
      if (nullable || !isRecord(schema.properties)) return { kind: 'json' }
      return { kind: 'object', fields: objectFields(schema) }
    }
    default:
      return { kind: 'json' }
  }
}

/** The field for one schema; `anyOf [X, null]` becomes a nullable X, other unions JSON. */
export function describeSchema(schema: unknown): FieldDescriptor {
  if (!isRecord(schema)) return { kind: 'json' }
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : null
  if (union) {
    const rest = union.filter((s) => !isNullSchema(s))
    const only = rest[0]
    if (rest.length === 1 && isRecord(only)) return scalar(only, rest.length < union.length)
    return { kind: 'json' }
  }
  return scalar(schema, false)
}

/** The properties of an object schema, in schema order. */
export function objectFields(schema: unknown): FieldSpec[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return []
  const required = stringArray(schema.required) ?? []
  return Object.entries(schema.properties).map(([key, prop]) => {
    const p = isRecord(prop) ? prop : {}
    return {
      key,
      field: describeSchema(p),
      required: required.includes(key),
      description: typeof p.description === 'string' ? p.description : '',
      hasDefault: Object.hasOwn(p, 'default'),
      defaultValue: p.default,
    }
  })
}

/** Params of a new step: every default the schema states (what `{}` validates to, roughly). */
export function defaultsFromSchema(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of objectFields(schema)) if (f.hasDefault) out[f.key] = f.defaultValue
  return out
}

function rangeProblem(
  d: Extract<FieldDescriptor, { kind: 'number' }>,
  value: number,
): string | null {
  if (d.integer && !Number.isInteger(value)) return 'must be a whole number'
  if (d.min !== undefined && value < d.min) return `must be ≥ ${d.min}`
  if (d.exclusiveMin !== undefined && value <= d.exclusiveMin) return `must be > ${d.exclusiveMin}`
  if (d.max !== undefined && value > d.max) return `must be ≤ ${d.max}`
  if (d.exclusiveMax !== undefined && value >= d.exclusiveMax) return `must be < ${d.exclusiveMax}`
  return null
}

/**
 * The cheap check the form runs while the user types (the worker's validation is the real one):
 * required values, numbers in range, enum members. Null when the value looks fine.
 */
export function checkValue(spec: FieldSpec, value: unknown): string | null {
  const d = spec.field
  if (value === undefined) return spec.required && !spec.hasDefault ? 'required' : null
  if (value === null) {
    const nullable = 'nullable' in d && d.nullable
    return nullable ? null : 'a value is required'
  }
  switch (d.kind) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
      return rangeProblem(d, value)
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false'
    case 'enum':
      return typeof value === 'string' && d.options.includes(value)
        ? null
        : `one of: ${d.options.join(', ')}`
    case 'string':
      if (typeof value !== 'string') return 'must be text'
      return value.length < d.minLength ? 'must not be empty' : null
    case 'stringList': {
      if (!Array.isArray(value)) return 'must be a list'
      const options = d.options
      if (!options) return null
      const unknown = value.filter((v) => typeof v !== 'string' || !options.includes(v))
      return unknown.length > 0
        ? `unknown: ${unknown.join(', ')} (one of: ${options.join(', ')})`
        : null
    }
    case 'object':
      return isRecord(value) ? null : 'must be an object'
    case 'json':
      return null
    default: {
      const never: never = d
      return never
    }
  }
}

/** What a number box holds: empty, a number, or text that is not one (yet: `-`, `1e`). */
export type NumberText =
  | { readonly kind: 'empty' }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'invalid' }

export function parseNumberText(text: string): NumberText {
  const t = text.trim()
  if (t === '') return { kind: 'empty' }
  const n = Number(t)
  return Number.isFinite(n) ? { kind: 'number', value: n } : { kind: 'invalid' }
}

/** `a, b,,c ` → `['a', 'b', 'c']`. */
export function parseListText(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

export function listText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : ''
}
