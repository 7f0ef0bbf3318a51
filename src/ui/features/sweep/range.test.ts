import { describe, expect, it } from 'vitest'
import type { NumericParam } from './params.ts'
import { defaultRange, MAX_STEPS, rangeValues } from './range.ts'

const count = (value: number): NumericParam => ({
  path: 'p',
  label: 'p',
  value,
  integer: true,
  min: 0,
  max: null,
})
const fraction = (value: number): NumericParam => ({ ...count(value), integer: false, max: 1 })

describe('defaultRange', () => {
  it('brackets a count with round ends', () => {
    expect(defaultRange(count(200_000))).toEqual({ from: 50_000, to: 400_000, steps: 12 })
    expect(defaultRange(count(183_750))).toEqual({ from: 46_000, to: 370_000, steps: 12 })
    // Small counts: one point per whole number.
    expect(defaultRange(count(3))).toEqual({ from: 1, to: 6, steps: 6 })
    expect(defaultRange(count(0))).toEqual({ from: 0, to: 10, steps: 11 })
  })

  it('keeps fractions of the window inside (0, 1]', () => {
    expect(defaultRange(fraction(0.85))).toEqual({ from: 0.55, to: 1, steps: 12 })
    expect(defaultRange(fraction(0.2))).toEqual({ from: 0.05, to: 0.5, steps: 12 })
  })

  it('scales other decimals', () => {
    expect(defaultRange({ ...count(1.5), integer: false })).toEqual({
      from: 0.38,
      to: 3,
      steps: 12,
    })
  })
})

describe('rangeValues', () => {
  it('spaces values evenly, both ends included', () => {
    expect(rangeValues({ from: 0, to: 100, steps: 5 }, true)).toEqual([0, 25, 50, 75, 100])
    expect(rangeValues({ from: 100, to: 0, steps: 3 }, true)).toEqual([100, 50, 0])
    expect(rangeValues({ from: 0.5, to: 1, steps: 3 }, false)).toEqual([0.5, 0.75, 1])
  })

  it('drops repeated whole numbers and clamps the number of steps', () => {
    expect(rangeValues({ from: 0, to: 3, steps: 12 }, true)).toEqual([0, 1, 2, 3])
    expect(rangeValues({ from: 0, to: 1000, steps: 500 }, true)).toHaveLength(MAX_STEPS)
    expect(rangeValues({ from: 0, to: 10, steps: 1 }, true)).toEqual([0, 10])
    expect(rangeValues({ from: 4, to: 4, steps: 5 }, true)).toEqual([4])
    expect(rangeValues({ from: Number.NaN, to: 4, steps: 5 }, true)).toEqual([])
  })
})
