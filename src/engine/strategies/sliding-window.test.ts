import { describe, expect, it } from 'vitest'
import { slidingWindowStrategy } from './sliding-window.ts'
import {
  call,
  conv,
  messages,
  project,
  result,
  runStrategy,
  transcript,
} from './truncation/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

function chat() {
  const m = messages()
  return conv([
    m('system', 'sys'),
    m('user', 'u1'),
    m('assistant', 'a1'),
    m('user', 'u2'),
    m('assistant', 'a2'),
    m('user', 'u3'),
    m('assistant', 'a3'),
  ])
}

describe('sliding-window (MAF SlidingWindowStrategy)', () => {
  it('MAF example: keep_last_groups=2 keeps the system prompt and u3, a3', async () => {
    const ctx = await runStrategy(slidingWindowStrategy, chat(), { keepLastGroups: 2 })
    expect(transcript(project(ctx))).toEqual(['system: sys', 'user: u3', 'assistant: a3'])
    const excluded = ctx.decisions.filter((d) => d.kind === 'exclude')
    expect(excluded.map((d) => d.groupId)).toEqual(['gm2', 'gm3', 'gm4', 'gm5'])
    expect(excluded.every((d) => d.reason === 'sliding_window')).toBe(true)
    expect(detailOf(excluded[0])).toBe(
      'Sliding window: outside the last 2 non-system groups (gm6 … gm7); dropped user group gm2 (1 tokens)',
    )
    expect(ctx.decisions.at(-1)).toMatchObject({
      kind: 'skip',
      reason: 'keep_recent',
      sentence: 'Sliding window: kept the last 2 non-system groups, gm6 … gm7',
    })
  })

  it('has no trigger: with few groups it records that nothing was dropped', async () => {
    const ctx = await runStrategy(slidingWindowStrategy, chat(), { keepLastGroups: 6 })
    expect(ctx.decisions).toHaveLength(1)
    expect(ctx.decisions[0]?.reason).toBe('below_threshold')
  })

  it('hard case 1: a parallel-call group counts as one group and goes whole', async () => {
    const m = messages()
    const c = conv([
      m('user', 'weather?'),
      m('assistant', [
        call('a', 'weather', { city: 'Oslo' }),
        call('b', 'weather', { city: 'Rome' }),
      ]),
      m('tool', [result('a', '4C')]),
      m('tool', [result('b', '21C')]),
      m('assistant', 'Oslo 4C, Rome 21C'),
    ])
    const one = await runStrategy(slidingWindowStrategy, c, { keepLastGroups: 2 })
    expect(transcript(project(one))).toEqual([
      'assistant: [call weather {"city":"Oslo"}] [call weather {"city":"Rome"}]',
      'tool: [result 4C]',
      'tool: [result 21C]',
      'assistant: Oslo 4C, Rome 21C',
    ])
    const none = await runStrategy(slidingWindowStrategy, c, { keepLastGroups: 1 })
    expect(transcript(project(none))).toEqual(['assistant: Oslo 4C, Rome 21C'])
  })

  it('preserveSystem: false drops system groups too when the system protection is off', async () => {
    const ctx = await runStrategy(
      slidingWindowStrategy,
      chat(),
      { keepLastGroups: 1, preserveSystem: false },
      { protections: { system: false } },
    )
    expect(transcript(project(ctx))).toEqual(['assistant: a3'])
  })

  it('re-running on its own projection changes nothing more (idempotence)', async () => {
    const first = await runStrategy(slidingWindowStrategy, chat(), { keepLastGroups: 3 })
    const again = await runStrategy(slidingWindowStrategy, project(first), { keepLastGroups: 3 })
    expect(again.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
  })

  it('rejects keepLastGroups 0 or missing', () => {
    expect(
      slidingWindowStrategy.schema.safeParse({ keepLastGroups: 0 }).error?.issues[0]?.message,
    ).toBe('keepLastGroups must be greater than 0')
    expect(slidingWindowStrategy.schema.safeParse({}).error?.issues[0]?.message).toBe(
      'keepLastGroups is required (MAF keep_last_groups)',
    )
    expect(slidingWindowStrategy.schema.parse({ keepLastGroups: 20 })).toEqual({
      keepLastGroups: 20,
      preserveSystem: true,
    })
  })
})
