import { describe, expect, it } from 'vitest'
import { heldBy, makeQueue, takeNext } from './fleet-queue.ts'

describe('the pool’s shared queue', () => {
  it('hands every position out once, across lanes, and records what each lane holds', () => {
    const queue = makeQueue(2)
    expect(heldBy(queue, 0)).toBe(-1)
    expect(heldBy(queue, 1)).toBe(-1)
    expect(takeNext(queue, 0, 3)).toBe(0)
    expect(takeNext(queue, 1, 3)).toBe(1)
    expect(heldBy(queue, 0)).toBe(0)
    expect(heldBy(queue, 1)).toBe(1)
    expect(takeNext(queue, 1, 3)).toBe(2)
    // Empty: the lane holds nothing, and stays empty for every lane after.
    expect(takeNext(queue, 0, 3)).toBe(-1)
    expect(heldBy(queue, 0)).toBe(-1)
    expect(takeNext(queue, 1, 3)).toBe(-1)
    expect(heldBy(queue, 1)).toBe(-1)
  })
})
