import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { evaluateTrigger, type Measures } from './triggers.ts'
import type { Trigger, TriggerCondition } from './types.ts'

const measures: Measures = {
  tokens: 1_000,
  usable: 2_000,
  messages: 10,
  groups: 5,
  turns: 2,
  toolResults: 3,
}

const conditionArb: fc.Arbitrary<TriggerCondition> = fc.oneof(
  fc.integer({ min: 0, max: 2_000 }).map((over) => ({ kind: 'tokens' as const, over })),
  fc
    .double({ min: 0, max: 1, noNaN: true })
    .map((over) => ({ kind: 'window_fraction' as const, over })),
  fc.integer({ min: 0, max: 20 }).map((over) => ({ kind: 'messages' as const, over })),
  fc.integer({ min: 0, max: 10 }).map((over) => ({ kind: 'groups' as const, over })),
)

describe('evaluateTrigger', () => {
  it('fires on any or all conditions, worded or not, with the same verdict', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('any' as const, 'all' as const),
        fc.array(conditionArb, { minLength: 1, maxLength: 4 }),
        (mode, conditions) => {
          const trigger: Trigger = { mode, conditions }
          const each = conditions.map(
            (c) => evaluateTrigger({ mode, conditions: [c] }, measures).fired,
          )
          const expected = mode === 'all' ? each.every(Boolean) : each.some(Boolean)
          const worded = evaluateTrigger(trigger, measures)
          expect(worded.fired).toBe(expected)
          expect(worded.why.startsWith(mode === 'all' ? 'all of: ' : 'any of: ')).toBe(true)
          expect(evaluateTrigger(trigger, measures, false)).toEqual({ fired: expected, why: '' })
        },
      ),
      { seed: 20261128, numRuns: 300 },
    )
  })

  it('says which conditions held', () => {
    const r = evaluateTrigger(
      {
        mode: 'all',
        conditions: [
          { kind: 'tokens', over: 500 },
          { kind: 'messages', over: 20 },
        ],
      },
      measures,
    )
    expect(r).toEqual({
      fired: false,
      why: 'all of: tokens > 500 ✓, messages > 20 ✗ (tokens 1000)',
    })
  })

  it('always fires without conditions', () => {
    expect(evaluateTrigger(undefined, measures, false).fired).toBe(true)
    expect(evaluateTrigger({ mode: 'all', conditions: [] }, measures).fired).toBe(true)
  })
})
