import { describe, expect, it } from 'vitest'
import type { SweepPoint } from '../../../store/index.ts'
import { chartRows, formatValue, sweepFacts } from './sweepModel.ts'

const point = (value: number, after: number, violations = 0): SweepPoint => ({
  value,
  ok: true,
  before: 100,
  after,
  saved: 100 - after,
  changes: 1,
  violations,
  risk: { usedLater: 0, tokens: 0 },
})
const invalid: SweepPoint = { ...point(0, 0), ok: false, error: 'window: too small' }

describe('sweep model', () => {
  it('sorts rows by value and breaks the lines at invalid values', () => {
    const risky = { ...point(1, 50), costAfter: 1.5, risk: { usedLater: 2, tokens: 12 } }
    expect(chartRows([point(3, 70), invalid, risky])).toEqual([
      { value: 0, after: null, saved: null, violations: null, cost: null, removedUsed: null },
      { value: 1, after: 50, saved: 50, violations: 0, cost: 1.5, removedUsed: 12 },
      { value: 3, after: 70, saved: 30, violations: 0, cost: null, removedUsed: 0 },
    ])
  })

  it('finds the smallest result without violations', () => {
    const facts = sweepFacts([point(1, 10, 2), point(2, 40), point(3, 30), invalid])
    expect(facts).toMatchObject({ valid: 3, invalid: 1, withViolations: 1 })
    expect(facts.best?.value).toBe(3)
    expect(sweepFacts([invalid]).best).toBeNull()
  })

  it('formats counts and fractions', () => {
    expect(formatValue(200000)).toBe('200,000')
    expect(formatValue(0.85)).toBe('0.85')
  })
})
