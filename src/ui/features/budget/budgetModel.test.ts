import { describe, expect, it } from 'vitest'
import {
  barDescription,
  barScale,
  barSegments,
  BUDGET_CATEGORIES,
  formatChange,
  usedTokens,
} from './budgetModel.ts'

const window = {
  before: 0,
  after: 0,
  window: 200_000,
  reservedOutput: 20_000,
  buffer: 0,
  usable: 180_000,
}

describe('budget bars', () => {
  it('puts used categories first, then free, then reserved output last', () => {
    const budget = { system: 1_000, tool_results: 59_000, stubs: 0 }
    const segments = barSegments(budget, window, barScale(window, [budget]))
    expect(segments.map((s) => s.key)).toEqual(['system', 'tool_results', 'free', 'reserved'])
    expect(segments.map((s) => s.kind)).toEqual(['used', 'used', 'free', 'reserved'])
    expect(segments.find((s) => s.key === 'free')?.tokens).toBe(120_000)
    expect(segments.reduce((sum, s) => sum + s.fraction, 0)).toBeCloseTo(1)
  })

  it('widens the scale when a context overflows, so reserved output stays visible', () => {
    const budget = { user: 190_000 }
    const scale = barScale(window, [budget])
    expect(scale).toBe(210_000)
    const segments = barSegments(budget, window, scale)
    expect(segments.map((s) => s.key)).toEqual(['user', 'reserved'])
    expect(barDescription('Before', budget, window)).toContain('10,000 over the usable window')
  })

  it('ignores unknown or missing categories and knows stubs', () => {
    expect(BUDGET_CATEGORIES).toContain('stubs')
    expect(usedTokens({ user: 5, stubs: 2, mystery: 100 })).toBe(7)
  })

  it('states the change of the whole context', () => {
    expect(formatChange(1000, 726)).toBe('−27.4 %')
    expect(formatChange(1000, 1000)).toBe('±0 %')
    expect(formatChange(1000, 1003)).toBe('+0.3 %')
  })
})
