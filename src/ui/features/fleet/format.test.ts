import { describe, expect, it } from 'vitest'
import { usd } from './format.ts'

describe('usd', () => {
  it('writes whole dollars from $100 as toLocaleString did, cents below', () => {
    for (const v of [100, 100.4, 1234.5, 98765.49, 12_345_678.9, 1e12]) {
      expect(usd(v)).toBe(`$${Math.round(v).toLocaleString('en-US')}`)
    }
    expect(usd(99.994)).toBe('$99.99')
    expect(usd(null)).toBe('–')
  })
})
