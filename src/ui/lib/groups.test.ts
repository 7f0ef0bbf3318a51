import { describe, expect, it } from 'vitest'
import { groupAtMessage } from './groups.ts'

describe('groupAtMessage', () => {
  // system group (no message), then groups of 1, 3 and 2 messages.
  const first = Int32Array.from([-1, 0, 1, 4])
  const counts = Int32Array.from([1, 1, 3, 2])

  it('finds the group whose messages hold the index', () => {
    expect(groupAtMessage(first, counts, 0)).toBe(1)
    expect(groupAtMessage(first, counts, 1)).toBe(2)
    expect(groupAtMessage(first, counts, 3)).toBe(2)
    expect(groupAtMessage(first, counts, 5)).toBe(3)
  })

  it('is null past the last message and before the first', () => {
    expect(groupAtMessage(first, counts, 6)).toBeNull()
    expect(groupAtMessage(Int32Array.from([2]), Int32Array.from([1]), 0)).toBeNull()
    expect(groupAtMessage(new Int32Array(0), new Int32Array(0), 0)).toBeNull()
  })
})
