import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../compaction/context.ts'
import { inTail, liveMessages, tailByGroups, tailByMessages } from './preserve-tail.ts'
import {
  assistant,
  calls,
  conversation,
  harness,
  result,
  user,
  type Harness,
} from './summarize/testing.ts'

const ctxOf = (h: Harness) =>
  new StrategyContext(
    h.view,
    h.protections,
    'test',
    0,
    { contextTokens: 0, reservedOutput: 0, buffer: 0, usable: 0 },
    undefined,
  )

// groups (with a system prompt at 0): 1 gu0, 2 ga1, 3 gu2, 4 ga3 (call + t4 t5 t6)
const conv = conversation(
  [
    user('u0', 'hi'),
    assistant('a1', 'hello'),
    user('u2', 'read three files'),
    calls('a3', [
      ['c1', 'read', {}],
      ['c2', 'read', {}],
      ['c3', 'read', {}],
    ]),
    result('t4', 'c1', 'read', 'A'),
    result('t5', 'c2', 'read', 'B'),
    result('t6', 'c3', 'read', 'C'),
  ],
  'system prompt',
)

describe('preserve-tail', () => {
  it('hard case 18: a message count that cuts a tool group keeps the whole group', () => {
    const ctx = ctxOf(harness(conv))
    const tail = tailByMessages(ctx, 3)
    expect(tail.cut).toBe(4)
    expect([...tail.groups]).toEqual([4])
    expect(tail.straddling).toEqual([4])
    expect(tail.label).toBe('the last 3 messages')
    // the call message: preserved in fixed mode (whole group), not by falai's message count
    expect(inTail(ctx, tail, 3, false)).toBe(true)
    expect(inTail(ctx, tail, 3, true)).toBe(false)
    expect(inTail(ctx, tail, 2, false)).toBe(false)
  })

  it('a count that falls on a group boundary straddles nothing', () => {
    const tail = tailByMessages(ctxOf(harness(conv)), 5)
    expect(tail.cut).toBe(2)
    expect([...tail.groups].sort()).toEqual([3, 4])
    expect(tail.straddling).toEqual([])
  })

  it('counts only messages still in the projection; more than exist keeps everything', () => {
    const h = harness(conv)
    h.view.exclude(4)
    const ctx = ctxOf(h)
    expect(liveMessages(ctx)).toEqual([0, 1, 2])
    expect([...tailByMessages(ctx, 2).groups]).toEqual([2, 3])
    expect([...tailByMessages(ctx, 50).groups]).toEqual([1, 2, 3])
    expect(tailByMessages(ctx, 0).cut).toBe(Infinity)
  })

  it('group tails count non-system groups only', () => {
    const tail = tailByGroups(ctxOf(harness(conv)), 2)
    expect([...tail.groups]).toEqual([3, 4])
    expect(tail.cut).toBe(2)
    expect(tailByGroups(ctxOf(harness(conv)), 10).groups.has(0)).toBe(false)
  })
})
