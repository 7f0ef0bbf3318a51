import { describe, expect, it } from 'vitest'
import {
  checkValue,
  defaultsFromSchema,
  describeSchema,
  objectFields,
  parseListText,
  parseNumberText,
  type FieldSpec,
} from './schemaFields.ts'

const MAX = 9007199254740991

// Shapes copied from what zod's toJSONSchema writes for our strategies.
const params = {
  type: 'object',
  properties: {
    keep: { default: 3, type: 'integer', minimum: 0, maximum: MAX },
    trigger: {
      default: null,
      anyOf: [{ type: 'integer', minimum: 0, maximum: MAX }, { type: 'null' }],
    },
    threshold: { default: 0.8, type: 'number', minimum: 0.5, maximum: 0.95 },
    role: { default: 'system', type: 'string', enum: ['system', 'user'] },
    placeholder: { default: '[cleared]', type: 'string', minLength: 1 },
    tools: { default: [], type: 'array', items: { type: 'string' } },
    cats: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
    inputs: {
      default: false,
      anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
    },
    fields: { default: {}, type: 'object', additionalProperties: { type: 'array' } },
    nested: { type: 'object', properties: { on: { type: 'boolean' } } },
    keepLast: { type: 'integer', exclusiveMinimum: 0, maximum: MAX },
  },
  required: ['keepLast'],
}

function spec(key: string): FieldSpec {
  const found = objectFields(params).find((f) => f.key === key)
  if (!found) throw new Error(key)
  return found
}

describe('JSON Schema → form fields', () => {
  it('maps each schema shape to its input', () => {
    expect(spec('keep').field).toEqual({
      kind: 'number',
      integer: true,
      nullable: false,
      min: 0,
      max: undefined,
      exclusiveMin: undefined,
      exclusiveMax: undefined,
    })
    expect(spec('trigger').field).toMatchObject({ kind: 'number', nullable: true })
    expect(spec('threshold').field).toMatchObject({ kind: 'number', integer: false, max: 0.95 })
    expect(spec('role').field).toEqual({
      kind: 'enum',
      options: ['system', 'user'],
      nullable: false,
    })
    expect(spec('placeholder').field).toEqual({ kind: 'string', minLength: 1, nullable: false })
    expect(spec('tools').field).toEqual({ kind: 'stringList', options: null })
    expect(spec('cats').field).toEqual({ kind: 'stringList', options: ['a', 'b'] })
    expect(spec('inputs').field).toEqual({ kind: 'json' })
    expect(spec('fields').field).toEqual({ kind: 'json' })
    expect(spec('nested').field).toMatchObject({ kind: 'object', fields: [{ key: 'on' }] })
    expect(
      describeSchema({ anyOf: [{ const: 'all', type: 'string' }, { type: 'integer' }] }),
    ).toEqual({
      kind: 'json',
    })
    expect(describeSchema(null)).toEqual({ kind: 'json' })
  })

  it('keeps required flags, defaults and descriptions', () => {
    expect(spec('keepLast')).toMatchObject({ required: true, hasDefault: false })
    expect(spec('keep')).toMatchObject({ required: false, hasDefault: true, defaultValue: 3 })
    expect(defaultsFromSchema(params)).toMatchObject({ keep: 3, trigger: null, tools: [] })
    expect(defaultsFromSchema(params)).not.toHaveProperty('keepLast')
  })

  it('checks values cheaply while typing', () => {
    expect(checkValue(spec('keepLast'), undefined)).toBe('required')
    expect(checkValue(spec('keep'), undefined)).toBeNull()
    expect(checkValue(spec('keep'), -1)).toBe('must be ≥ 0')
    expect(checkValue(spec('keep'), 1.5)).toBe('must be a whole number')
    expect(checkValue(spec('keepLast'), 0)).toBe('must be > 0')
    expect(checkValue(spec('threshold'), 0.99)).toBe('must be ≤ 0.95')
    expect(checkValue(spec('trigger'), null)).toBeNull()
    expect(checkValue(spec('keep'), null)).toBe('a value is required')
    expect(checkValue(spec('role'), 'tool')).toBe('one of: system, user')
    expect(checkValue(spec('placeholder'), '')).toBe('must not be empty')
    expect(checkValue(spec('cats'), ['a', 'z'])).toMatch(/unknown: z/)
    expect(checkValue(spec('tools'), ['x'])).toBeNull()
  })

  it('parses number and list boxes', () => {
    expect(parseNumberText(' 12 ')).toEqual({ kind: 'number', value: 12 })
    expect(parseNumberText('')).toEqual({ kind: 'empty' })
    expect(parseNumberText('-')).toEqual({ kind: 'invalid' })
    expect(parseListText('a, b,,c ')).toEqual(['a', 'b', 'c'])
  })
})
