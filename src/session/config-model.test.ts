import { describe, expect, it } from 'vitest'
import { conditionSchema, targetSchema } from '../config/schema.ts'
import { boundsOf } from './config-model.ts'
import { describeConfigs } from './describe.ts'

describe('config model (from the schema)', () => {
  const { model, strategies } = describeConfigs()

  it('lists every condition and target kind the schema accepts, in its order', () => {
    const kinds = model.conditions.map((k) => k.kind)
    expect(kinds).toEqual(conditionSchema.options.map((o) => o.shape.kind.value))
    expect(model.targets.map((k) => k.kind)).toEqual(
      targetSchema.options.map((o) => o.shape.kind.value),
    )
    // Every kind the model offers validates with a value inside its bounds.
    for (const k of model.conditions) {
      const inside = k.bounds.max ?? (k.bounds.min ?? 0) + 1
      expect(conditionSchema.safeParse({ kind: k.kind, over: inside }).success).toBe(true)
    }
  })

  it('gives fractions their exclusive zero and their one, counts their whole numbers', () => {
    const fraction = model.conditions.find((k) => k.kind === 'window_fraction')?.bounds
    expect(fraction).toEqual({ integer: false, min: 0, exclusiveMin: true, max: 1 })
    const tokens = model.targets.find((k) => k.kind === 'tokens')?.bounds
    expect(tokens).toEqual({ integer: true, min: 0, exclusiveMin: false, max: null })
    expect(model.window.contextTokens).toMatchObject({ integer: true, exclusiveMin: true })
    expect(model.protections.recentTurns).toMatchObject({ integer: true, min: 0 })
  })

  it('has the number params of every strategy', () => {
    expect(Object.keys(model.strategies).sort()).toEqual(strategies.map((s) => s.id).sort())
    const numbers = Object.values(model.strategies).flatMap((p) => Object.values(p))
    expect(numbers.length).toBeGreaterThan(0)
  })

  it('reads nullable numbers and refuses what is not a number', () => {
    expect(boundsOf({ anyOf: [{ type: 'number', minimum: 1 }, { type: 'null' }] })).toEqual({
      integer: false,
      min: 1,
      exclusiveMin: false,
      max: null,
    })
    expect(boundsOf({ type: 'string' })).toBeNull()
    expect(boundsOf(null)).toBeNull()
  })
})
