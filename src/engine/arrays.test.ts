/* eslint-disable no-restricted-syntax -- compares against the spread forms on purpose */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstAtLeast, maxOf, minOf, pushAll, sameItems } from './arrays.ts'

describe('array helpers without argument spreading', () => {
  const big = Array.from({ length: 300_000 }, (_, i) => i)

  it('pushAll appends 300k items where push(...items) overflows', () => {
    expect(() => [].push(...(big as never[]))).toThrow(RangeError)
    const target = [-1]
    expect(pushAll(target, big)).toBe(target)
    expect(target.length).toBe(300_001)
    expect(target[300_000]).toBe(299_999)
  })

  it('maxOf / minOf match Math.max / Math.min, also on 300k values', () => {
    for (const values of [[], [3], [1, 5, -2], [1, Number.NaN, 2], [-0, 0]]) {
      expect(Object.is(maxOf(values), Math.max(...values))).toBe(true)
      expect(Object.is(minOf(values), Math.min(...values))).toBe(true)
    }
    expect(maxOf(big)).toBe(299_999)
    expect(minOf(big)).toBe(0)
  })
})

describe('sameItems', () => {
  it('is true for the same array or the same items in order, false otherwise', () => {
    const x = {}
    const list = [x, 1]
    expect(sameItems(list, list)).toBe(true)
    expect(sameItems([x, 1], [x, 1])).toBe(true)
    expect(sameItems([{}, 1], [{}, 1])).toBe(false)
    expect(sameItems([1, x], [x, 1])).toBe(false)
    expect(sameItems([x], [x, 1])).toBe(false)
    expect(sameItems(undefined, [])).toBe(false)
  })
})

describe('firstAtLeast', () => {
  it('is the first index of a sorted prefix holding at least the value (a linear scan agrees)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 40 }),
        fc.integer({ min: -25, max: 25 }),
        fc.nat(),
        (values, value, cut) => {
          const sorted = Int32Array.from(values).sort()
          const end = cut % (sorted.length + 1)
          let expected = 0
          while (expected < end && (sorted[expected] as number) < value) expected++
          expect(firstAtLeast(sorted, value, end)).toBe(expected)
          if (end === sorted.length) expect(firstAtLeast(Array.from(sorted), value)).toBe(expected)
        },
      ),
    )
  })
})
