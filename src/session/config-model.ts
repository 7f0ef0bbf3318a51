/**
 * The config model the editor and the sweep need, described once from the schema (zod → JSON
 * Schema) and sent to the UI with `describe`: which trigger conditions and targets exist, and the
 * bounds and integer flag of every number a config holds. The UI never keeps its own copy.
 */
import { z } from 'zod'
import { conditionSchema, configSchema, targetSchema } from '../config/schema.ts'
import type { ConfigModel, KindModel, NumberBounds } from './types.ts'

type Json = Record<string, unknown>
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** JSON Schema's largest safe integer bound means "no bound" to a person. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER

/** The bounds of a JSON Schema number (or null when it is not a number). */
export function boundsOf(schema: unknown): NumberBounds | null {
  if (!isJson(schema)) return null
  const options = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isJson) : [schema]
  const number = options.find((o) => o.type === 'integer' || o.type === 'number')
  if (!number) return null
  const exclusiveMin = num(number.exclusiveMinimum)
  const max = num(number.maximum)
  return {
    integer: number.type === 'integer',
    min: exclusiveMin ?? num(number.minimum),
    exclusiveMin: exclusiveMin !== null,
    max: max === null || max >= UNBOUNDED ? null : max,
  }
}

/** Number fields of an object schema, by key. */
export function numberFields(schema: unknown): Record<string, NumberBounds> {
  const out: Record<string, NumberBounds> = {}
  if (!isJson(schema) || !isJson(schema.properties)) return out
  for (const [key, field] of Object.entries(schema.properties)) {
    const bounds = boundsOf(field)
    if (bounds) out[key] = bounds
  }
  return out
}

function kinds(schema: z.ZodType, key: 'over' | 'under'): KindModel[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Json
  const options = Array.isArray(json.oneOf)
    ? json.oneOf
    : Array.isArray(json.anyOf)
      ? json.anyOf
      : []
  return options.filter(isJson).flatMap((o) => {
    const props = isJson(o.properties) ? o.properties : {}
    const kind = isJson(props.kind) ? props.kind.const : undefined
    const bounds = boundsOf(props[key])
    return typeof kind === 'string' && bounds ? [{ kind, key, bounds }] : []
  })
}

export function configModel(strategyParams: Readonly<Record<string, unknown>>): ConfigModel {
  const config = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Json
  const props = isJson(config.properties) ? config.properties : {}
  const strategies: Record<string, Record<string, NumberBounds>> = {}
  for (const [id, schema] of Object.entries(strategyParams)) strategies[id] = numberFields(schema)
  return {
    conditions: kinds(conditionSchema, 'over'),
    targets: kinds(targetSchema, 'under'),
    window: numberFields(props.window),
    protections: numberFields(props.protections),
    strategies,
  }
}
