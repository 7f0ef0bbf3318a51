import { describe, expect, it } from 'vitest'
import { truncationStrategy } from './truncation.ts'
import {
  call,
  conv,
  messages,
  project,
  reasoning,
  result,
  runStrategy,
  transcript,
} from './truncation/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

const kinds = (ctx: Awaited<ReturnType<typeof runStrategy>>) => ctx.decisions.map((d) => d.kind)

describe('truncation (MAF TruncationStrategy)', () => {
  it('MAF example: keeps the system anchor (max_n=3, compact_to=3, message count)', async () => {
    const m = messages()
    const c = conv([
      m('system', 'you are helpful'),
      m('user', 'u1'),
      m('assistant', 'a1'),
      m('user', 'u2'),
      m('assistant', 'a2'),
    ])
    const ctx = await runStrategy(truncationStrategy, c, { maxN: 3, compactTo: 3 })
    expect(transcript(project(ctx))).toEqual([
      'system: you are helpful',
      'user: u2',
      'assistant: a2',
    ])
    const excluded = ctx.decisions.filter((d) => d.kind === 'exclude')
    expect(excluded.map((d) => [d.groupId, d.reason])).toEqual([
      ['gm2', 'truncation'],
      ['gm3', 'truncation'],
    ])
    expect(detailOf(excluded[0])).toBe(
      'Truncation: 5 included messages > compact_to 3 (triggered at 5 > max_n 3); dropped the oldest user group gm2 (1 messages)',
    )
  })

  it('MAF example: token truncation keeps the system prompt and the minimum retained group', async () => {
    // MAF test_truncation_strategy_compacts_when_token_limit_exceeded predates the minimum
    // retained group (#7219): the newest group is now kept even though it alone is over 40.
    const m = messages()
    const c = conv([
      m('system', 'you are helpful'),
      m('user', 'u1 '.repeat(200)),
      m('assistant', 'a1 '.repeat(200)),
    ])
    const ctx = await runStrategy(truncationStrategy, c, {
      maxN: 80,
      compactTo: 40,
      metric: 'tokens',
    })
    expect(transcript(project(ctx)).map((t) => t.slice(0, 20))).toEqual([
      'system: you are help',
      'assistant: a1 a1 a1 ',
    ])
    expect(ctx.totalTokens()).toBe(203)
    const last = ctx.decisions.at(-1)
    expect(last?.reason).toBe('protected')
    expect(detailOf(last)).toBe(
      'Truncation stopped at 203 tokens, still over compact_to 40: kept the newest assistant_text group gm3 (200 tokens) — the minimum retained group is never excluded, so the context is never empty',
    )
  })

  it('ADR example: oldest-first by message count never splits a tool-call group', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u1'),
      m('assistant', [call('c1', 'read', { path: 'a' })]),
      m('tool', [result('c1', 'A')]),
      m('tool', [result('c1', 'A again')]),
      m('user', 'u2'),
      m('assistant', 'a2'),
    ])
    // 6 messages > 5: dropping u1 leaves 5, still over compact_to 3; the 3-message tool group goes
    // whole (keeping part of it would have fit), leaving 2.
    const ctx = await runStrategy(truncationStrategy, c, { maxN: 5, compactTo: 3 })
    expect(transcript(project(ctx))).toEqual(['user: u2', 'assistant: a2'])
    expect(ctx.decisions.filter((d) => d.kind === 'exclude')).toHaveLength(2)
  })

  it('is not triggered at or under max_n', async () => {
    const m = messages()
    const c = conv([m('user', 'u1'), m('assistant', 'a1'), m('user', 'u2')])
    const ctx = await runStrategy(truncationStrategy, c, { maxN: 3, compactTo: 1 })
    expect(kinds(ctx)).toEqual(['skip'])
    expect(ctx.decisions[0]?.reason).toBe('below_threshold')
    expect(detailOf(ctx.decisions[0])).toBe(
      'Truncation not triggered: 3 included messages is not over max_n 3',
    )
  })

  it('counts the top-level system prompt as one message and keeps it', async () => {
    const m = messages()
    const c = conv([m('user', 'u1'), m('assistant', 'a1'), m('user', 'u2')], {
      system: 'be brief',
    })
    const ctx = await runStrategy(truncationStrategy, c, { maxN: 3, compactTo: 2 })
    expect(transcript(project(ctx))).toEqual(['user: u2'])
    expect(project(ctx).system).toHaveLength(1)
  })

  it('hard case 20: an oversized latest group is kept and the result reported still over', async () => {
    const m = messages()
    const c = conv([
      m('user', 'read the log'),
      m('assistant', 'sure'),
      m('assistant', [call('c1', 'read', { path: 'big.log' })]),
      m('tool', [result('c1', 'line '.repeat(500))]),
    ])
    const ctx = await runStrategy(truncationStrategy, c, {
      maxN: 100,
      compactTo: 50,
      metric: 'tokens',
    })
    expect(ctx.view.isExcluded(0)).toBe(true)
    expect(ctx.view.isExcluded(1)).toBe(true)
    expect(ctx.view.isExcluded(2)).toBe(false)
    expect(ctx.totalTokens()).toBe(502)
    expect(detailOf(ctx.decisions.at(-1))).toMatch(/^Truncation stopped at 502 tokens, still over/)
  })

  it('hard cases 1 and 6: parallel calls with reasoning before them go as one group', async () => {
    const m = messages()
    const c = conv([
      m('user', 'weather in Oslo and Rome?'),
      m('assistant', [reasoning('two lookups')]),
      m('assistant', [
        call('a', 'weather', { city: 'Oslo' }),
        call('b', 'weather', { city: 'Rome' }),
      ]),
      m('tool', [result('b', '21C')]),
      m('tool', [result('a', '4C')]),
      m('user', 'thanks'),
      m('assistant', 'welcome'),
    ])
    const ctx = await runStrategy(truncationStrategy, c, { maxN: 6, compactTo: 2 })
    const excluded = ctx.decisions.filter((d) => d.kind === 'exclude').map((d) => d.groupId)
    expect(excluded).toEqual(['gm1', 'gm2'])
    expect(ctx.view.prepared.grouping.groups[1]?.messages).toEqual([1, 2, 3, 4])
    expect(transcript(project(ctx))).toEqual(['user: thanks', 'assistant: welcome'])
  })

  it('preserveSystem: false tries system groups too; the system protection refuses', async () => {
    const m = messages()
    const c = conv([m('system', 'rules'), m('user', 'u1'), m('assistant', 'a1')])
    const refused = await runStrategy(truncationStrategy, c, {
      maxN: 2,
      compactTo: 1,
      preserveSystem: false,
    })
    expect(refused.decisions[0]).toMatchObject({
      kind: 'protected',
      protection: 'system',
      attempted: 'exclude',
    })
    const allowed = await runStrategy(
      truncationStrategy,
      c,
      { maxN: 2, compactTo: 1, preserveSystem: false },
      { protections: { system: false } },
    )
    expect(transcript(project(allowed))).toEqual(['assistant: a1'])
  })

  it('re-running on its own projection changes nothing more (idempotence)', async () => {
    const m = messages()
    const c = conv([1, 2, 3, 4, 5].flatMap((i) => [m('user', `u${i}`), m('assistant', `a${i}`)]))
    const first = await runStrategy(truncationStrategy, c, { maxN: 6, compactTo: 4 })
    const again = await runStrategy(truncationStrategy, project(first), { maxN: 6, compactTo: 4 })
    expect(kinds(again)).toEqual(['skip'])
  })

  it('rejects invalid options with clear messages', () => {
    const parse = (p: unknown) => truncationStrategy.schema.safeParse(p)
    expect(parse({ maxN: 3, compactTo: 4 }).error?.issues[0]?.message).toBe(
      'compactTo must be less than or equal to maxN',
    )
    expect(parse({ maxN: 0, compactTo: 0 }).error?.issues[0]?.message).toBe(
      'maxN must be greater than 0',
    )
    expect(parse({ compactTo: 3 }).error?.issues[0]?.message).toBe(
      'maxN is required (MAF max_n): the metric value that triggers truncation',
    )
    expect(parse({ maxN: 3, compactTo: 2, metric: 'chars' }).success).toBe(false)
    expect(parse({ maxN: 3, compactTo: 2 }).data).toEqual({
      maxN: 3,
      compactTo: 2,
      metric: 'messages',
      preserveSystem: true,
    })
  })
})
