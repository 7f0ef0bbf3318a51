import { describe, expect, it } from 'vitest'
import { formatUsd, overrideValue, percent, sourceLabel } from './accountingModel.ts'

describe('accounting panel helpers', () => {
  it('labels the source and formats errors', () => {
    expect(sourceLabel('reconciled')).toMatch(/reported usage/)
    expect(sourceLabel('estimated')).toMatch(/estimated/)
    expect(percent(0.0234)).toBe('2.3 %')
    expect(percent(-0.5)).toBe('50.0 %')
    expect(percent(null)).toBe('–')
    expect(overrideValue(12)).toBe(12)
    expect(overrideValue('12')).toBeNull()
    expect(overrideValue(Number.NaN)).toBeNull()
    expect(formatUsd(12.345)).toBe('$12.35')
    expect(formatUsd(0.01234)).toBe('$0.0123')
    expect(formatUsd(null)).toBe('–')
  })
})
