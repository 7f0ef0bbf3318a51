import { describe, expect, it } from 'vitest'
import { recall, remember } from './recent-values.ts'

describe('recent values', () => {
  it('drops the least recently used value beyond the bound, not the one just recalled', () => {
    const m = new Map<string, number>()
    remember(m, 'a', 1, 2)
    remember(m, 'b', 2, 2)
    expect(recall(m, 'a')).toBe(1)
    remember(m, 'c', 3, 2)
    expect([...m.keys()]).toEqual(['a', 'c'])
    expect(recall(m, 'b')).toBeUndefined()
  })

  it('replacing a key keeps the others', () => {
    const m = new Map<string, number>()
    remember(m, 'a', 1, 2)
    remember(m, 'b', 2, 2)
    remember(m, 'a', 9, 2)
    expect([...m.entries()]).toEqual([
      ['b', 2],
      ['a', 9],
    ])
  })
})
