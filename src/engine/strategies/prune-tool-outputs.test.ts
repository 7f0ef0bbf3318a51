import { describe, expect, it } from 'vitest'
import type { StrategyContext } from '../compaction/context.ts'
import type { Message } from '../model.ts'
import { OPENCODE_CLEARED, pruneToolOutputsStrategy } from './prune-tool-outputs.ts'
import { opencodeEstimate } from './prune-tool-outputs/walk.ts'
import {
  assistant,
  calls,
  conversation,
  harness,
  partText,
  result,
  run,
  user,
} from './summarize/testing.ts'
import { detailOf } from '../compaction/sentence.ts'
import { WorkingView } from '../compaction/view.ts'

const big = (chars: number, c = 'x') => c.repeat(chars)
const reasons = (ctx: StrategyContext) =>
  ctx.decisions.map(
    (d) =>
      `${d.kind}:${d.reason}:${d.kind === 'skip' || d.kind === 'stub' ? (d.target?.message ?? '') : ''}`,
  )

/**
 * The seed's example: 10 messages, user turns at 3 and 7 … as the seed's table lists them:
 * 0 user, 1 asst read_file, 2 tool read_file, 3 user (skipBoundary), 4 asst skill, 5 tool skill,
 * 6 asst edit_file, 7 tool edit_file, 8 user, 9 asst.
 */
function seedExample(outputChars: number) {
  return conversation([
    user('m0', 'read the config'),
    calls('m1', [['c1', 'read_file', { path: 'config.ts' }]]),
    result('m2', 'c1', 'read_file', big(outputChars)),
    user('m3', 'now build the report'),
    calls('m4', [['c2', 'skill', { name: 'build-report' }]]),
    result('m5', 'c2', 'skill', big(outputChars, 's')),
    calls('m6', [['c3', 'edit_file', { path: 'report.md' }]]),
    result('m7', 'c3', 'edit_file', big(outputChars, 'e')),
    user('m8', 'thanks'),
    assistant('m9', 'Done.'),
  ])
}

describe('prune-tool-outputs (opencode prune)', () => {
  it('seed: the 10-message example — only message 2 is pruned, 5 (skill) and 7 (after the boundary) are kept', async () => {
    // 200,000 chars = 50,000 tokens (round(len/4)): over PRUNE_PROTECT 40,000 and PRUNE_MINIMUM 20,000.
    const h = harness(seedExample(200_000))
    const ctx = await run(pruneToolOutputsStrategy, h)
    expect(partText(h.view, 2)).toBe('[Old tool result content cleared]')
    expect(partText(h.view, 5)).toBe(big(200_000, 's'))
    expect(partText(h.view, 7)).toBe(big(200_000, 'e'))
    expect(reasons(ctx)).toEqual(['skip:keep_recent:7', 'skip:protected:5', 'stub:pruned:2'])
    expect(detailOf(ctx.decisions[0])).toContain(
      'is in the last 2 user turns, which opencode never prunes',
    )
    expect(detailOf(ctx.decisions[1])).toContain('skill is a protected tool')
    expect(detailOf(ctx.decisions[2])).toBe(
      'Cleared the read_file output (50,000 tokens, round(chars/4)); the call stays: it is older than the newest 40,000 tokens of tool output (50,000 counted) and pruning frees 50,000 tokens, more than the minimum 20,000',
    )
    // the call is untouched: pairing intact
    expect(h.view.part({ message: 1, part: 0 })?.kind).toBe('tool_call')
  })

  it("seed recipe: no thresholds and the seed's placeholder give the same selection", async () => {
    const h = harness(seedExample(400))
    await run(pruneToolOutputsStrategy, h, {
      minimumTokens: 0,
      protectTokens: 0,
      placeholder: '<tool-output-compacted />',
    })
    expect([2, 5, 7].map((m) => partText(h.view, m))).toEqual([
      '<tool-output-compacted />',
      big(400, 's'),
      big(400, 'e'),
    ])
  })

  it('an edited placeholder, edited back, clears with the text asked for each time', async () => {
    // Same prepared conversation throughout, as the app re-plans it after each edit: the cleared
    // parts it remembers per output must follow the placeholder, and so must their prices.
    const h = harness(seedExample(400))
    const texts: string[] = []
    const prices: number[] = []
    for (const placeholder of ['<a />', 'a much longer placeholder than the first one', '<a />']) {
      const view = new WorkingView(h.view.prepared)
      const ctx = await run(
        pruneToolOutputsStrategy,
        { ...h, view },
        {
          minimumTokens: 0,
          protectTokens: 0,
          placeholder,
        },
      )
      texts.push(partText(view, 2) ?? '')
      const stub = ctx.decisions.find((d) => d.kind === 'stub')
      prices.push(stub?.kind === 'stub' ? stub.tokensAfter : -1)
      expect(stub?.kind === 'stub' && stub.tokensAfter).toBe(
        view.partTokens({ message: 2, part: 0 }),
      )
    }
    expect(texts).toEqual(['<a />', 'a much longer placeholder than the first one', '<a />'])
    expect(prices[1]).toBeGreaterThan(prices[0] as number)
    expect(prices[2]).toBe(prices[0])
  })

  it('keeps the newest 40k tokens of tool output and prunes older ones', async () => {
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [
        ['c1', 'grep', {}],
        ['c2', 'grep', {}],
        ['c3', 'grep', {}],
      ]),
      result('t2', 'c1', 'grep', big(120_000, 'a')),
      result('t3', 'c2', 'grep', big(120_000, 'b')),
      result('t4', 'c3', 'grep', big(120_000, 'c')),
      user('u5', 'next'),
      user('u6', 'and next'),
    ])
    const h = harness(conv)
    const ctx = await run(pruneToolOutputsStrategy, h)
    expect([2, 3, 4].map((m) => partText(h.view, m))).toEqual([
      OPENCODE_CLEARED,
      OPENCODE_CLEARED,
      big(120_000, 'c'),
    ])
    expect(reasons(ctx)).toEqual(['skip:keep_recent:4', 'stub:pruned:3', 'stub:pruned:2'])
    expect(detailOf(ctx.decisions[0])).toContain(
      'within the newest 40,000 tokens of tool output (running total 30,000)',
    )
  })

  it('hard case 16: nothing changes when pruning would free no more than PRUNE_MINIMUM', async () => {
    // 30k (kept) + 20k (candidate): pruned = 20,000, not > 20,000.
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [
        ['c1', 'grep', {}],
        ['c2', 'grep', {}],
      ]),
      result('t2', 'c1', 'grep', big(80_000)),
      result('t3', 'c2', 'grep', big(160_000)),
      user('u4', 'next'),
      user('u5', 'and next'),
    ])
    const h = harness(conv)
    const before = h.view.totalTokens
    const ctx = await run(pruneToolOutputsStrategy, h)
    expect(h.view.totalTokens).toBe(before)
    expect(reasons(ctx)).toEqual(['skip:keep_recent:3', 'skip:skipped_below_min_tokens:2'])
    expect(detailOf(ctx.decisions[1])).toContain('would free only 20,000 tokens in total')
  })

  it('stops at a previous opencode summary (summary: true)', async () => {
    const summary: Message = {
      ...assistant('s3', 'Summary of earlier work.'),
      source: { msgId: 's3', info: { role: 'assistant', summary: true } },
    }
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [['c1', 'read', {}]]),
      result('t2', 'c1', 'read', big(400_000)),
      summary,
      user('u4', 'continue'),
      calls('a5', [['c2', 'read', {}]]),
      result('t6', 'c2', 'read', big(200_000)),
      user('u7', 'next'),
      user('u8', 'and next'),
    ])
    const h = harness(conv)
    const ctx = await run(pruneToolOutputsStrategy, h, { protectTokens: 0, minimumTokens: 0 })
    expect(partText(h.view, 6)).toBe(OPENCODE_CLEARED)
    expect(partText(h.view, 2)).toBe(big(400_000))
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['already_compacted', 'pruned'])
    expect(detailOf(ctx.decisions[0])).toContain(
      'Prune walk stops at the previous summary (message s3)',
    )
  })

  it('faithful: the walk stops at the first already-cleared output (issue #30807)', async () => {
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [
        ['c1', 'read', {}],
        ['c2', 'read', {}],
        ['c3', 'read', {}],
      ]),
      result('t2', 'c1', 'read', big(200_000)),
      result('t3', 'c2', 'read', OPENCODE_CLEARED, { meta: { compacted: true } }),
      result('t4', 'c3', 'read', big(200_000)),
      user('u5', 'next'),
      user('u6', 'and next'),
    ])
    const faithful = harness(conv)
    const f = await run(pruneToolOutputsStrategy, faithful, { protectTokens: 0, faithful: true })
    expect(partText(faithful.view, 4)).toBe(OPENCODE_CLEARED)
    expect(partText(faithful.view, 2)).toBe(big(200_000))
    expect(f.decisions.map((d) => d.reason)).toEqual(['already_compacted', 'pruned'])

    const fixed = harness(conv)
    const g = await run(pruneToolOutputsStrategy, fixed, { protectTokens: 0 })
    expect(partText(fixed.view, 2)).toBe(OPENCODE_CLEARED)
    const older = g.decisions.find((d) => d.kind === 'stub' && d.target.message === 2)
    expect(older?.fixed).toBe(
      'opencode stops its walk at the first already-cleared output (message t3) and would have left this one (issue #30807)',
    )
  })

  it('hard case 17: a second run changes nothing', async () => {
    const h = harness(seedExample(200_000))
    await run(pruneToolOutputsStrategy, h)
    const total = h.view.totalTokens
    const again = await run(pruneToolOutputsStrategy, h, {}, 1)
    expect(h.view.totalTokens).toBe(total)
    expect(again.decisions.some((d) => d.kind === 'stub')).toBe(false)
    expect(again.decisions.at(-1)?.reason).toBe('already_compacted')
  })

  it('never touches errored outputs or pending calls', async () => {
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [
        ['c1', 'bash', {}],
        ['c2', 'bash', {}],
        ['c3', 'bash', {}],
      ]),
      result('t2', 'c1', 'bash', big(200_000), { isError: true }),
      result('t3', 'c2', 'bash', big(200_000)),
      user('u4', 'next'),
      user('u5', 'and next'),
    ])
    const h = harness(conv)
    const ctx = await run(pruneToolOutputsStrategy, h, { protectTokens: 0 })
    expect(partText(h.view, 2)).toBe(big(200_000))
    expect(partText(h.view, 3)).toBe(OPENCODE_CLEARED)
    expect(detailOf(ctx.decisions[0])).toContain('error output is not pruned')
    expect(h.view.part({ message: 1, part: 2 })?.kind).toBe('tool_call') // c3: pending, untouched
  })

  it('hard case 19: one huge agentic turn — 2-turn protection prunes nothing; protectTurns 0 prunes inside it', async () => {
    const list: [string, string][] = Array.from({ length: 6 }, (_, i) => [`c${i}`, 'read_file'])
    const conv = conversation([
      user('u0', 'refactor everything'),
      calls('a1', [...list, ['live', 'bash']]),
      ...list.map(([id], i) => result(`t${i}`, id, 'read_file', big(100_000, String(i)))),
    ])
    const twoTurns = harness(conv)
    const a = await run(pruneToolOutputsStrategy, twoTurns)
    expect(a.decisions.every((d) => d.reason === 'keep_recent')).toBe(true)
    const inside = harness(conv)
    await run(pruneToolOutputsStrategy, inside, { protectTurns: 0 })
    // 25k tokens each: t5 fits the newest 40k, t4 crosses it and is pruned with everything older;
    // the in-flight call stays
    expect([2, 3, 4, 5, 6, 7].map((m) => partText(inside.view, m) === OPENCODE_CLEARED)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ])
    expect(inside.view.part({ message: 1, part: 6 })?.kind).toBe('tool_call')
  })

  it('estimates like opencode: round(chars / 4)', () => {
    expect([0, 1, 2, 5, 6, 10].map((n) => opencodeEstimate('x'.repeat(n)))).toEqual([
      0, 0, 1, 1, 2, 3,
    ])
  })

  it('defaults are opencode’s and invalid options are rejected', () => {
    expect(pruneToolOutputsStrategy.schema.parse({})).toEqual({
      minimumTokens: 20_000,
      protectTokens: 40_000,
      protectedTools: ['skill'],
      protectTurns: 2,
      placeholder: '[Old tool result content cleared]',
      faithful: false,
    })
    expect(() => pruneToolOutputsStrategy.schema.parse({ minimumTokens: -1 })).toThrow(
      'minimumTokens must be >= 0',
    )
    expect(() => pruneToolOutputsStrategy.schema.parse({ placeholder: '' })).toThrow(
      'placeholder must not be empty',
    )
  })
})
