import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../compaction/context.ts'
import { planTruncation, toolResultBudgetStrategy, truncationNotice } from './tool-result-budget.ts'
import { falaiEstimate } from './tool-result-budget/falai.ts'
import {
  calls,
  conversation,
  harness,
  partText,
  result,
  run,
  user,
  assistant,
} from './summarize/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

const big = (n: number, c = 'x') => c.repeat(n)

/** u0, a1 (read_file call), t2 (12,000-char result), u3, a4, u5, a6 — the result is before the tail. */
function history(output = big(12_000)) {
  return conversation([
    user('u0', 'read the log'),
    calls('a1', [['c1', 'read_file', { path: 'app.log' }]]),
    result('t2', 'c1', 'read_file', output),
    user('u3', 'what does it say?'),
    assistant('a4', 'It says the build failed.'),
    user('u5', 'fix it'),
    assistant('a6', 'Done.'),
  ])
}

describe('tool-result-budget (falai tool_result_budget)', () => {
  it("seed: a 12,000-char result keeps its first 5,000 chars plus falai's exact notice", async () => {
    const h = harness(history())
    const ctx = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    expect(partText(h.view, 2)).toBe(
      `${big(5000)}\n\n[Truncated: 12000 chars total, showing first 5000]`,
    )
    const d = ctx.decisions.find((x) => x.kind === 'trim')
    expect(d?.reason).toBe('result_truncated')
    expect(detailOf(d)).toContain('from 12,000 to its first 5,000 chars')
    expect(detailOf(d)).toContain('the exact token count')
    expect(d?.groupId).toBe('ga1')
    // the call survives: only the result content changed
    expect(h.view.part({ message: 1, part: 0 })?.kind).toBe('tool_call')
  })

  it('does nothing under the threshold and says so (falai strategy "none")', async () => {
    const h = harness(history())
    const before = h.view.totalTokens
    const ctx = await run(toolResultBudgetStrategy, h, { maxTokens: 100_000 })
    expect(h.view.totalTokens).toBe(before)
    expect(ctx.decisions).toHaveLength(1)
    expect(ctx.decisions[0]?.reason).toBe('below_threshold')
    expect(detailOf(ctx.decisions[0])).toContain('vs threshold 80,000 (0.8 × 100,000, maxTokens)')
  })

  it('leaves results inside the preserved tail alone (keep_recent)', async () => {
    const conv = conversation([
      user('u0', 'go'),
      calls('a1', [['c1', 'grep', { pattern: 'x' }]]),
      result('t2', 'c1', 'grep', big(9000)),
    ])
    const h = harness(conv)
    const ctx = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    expect(partText(h.view, 2)).toBe(big(9000))
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['keep_recent'])
    expect(detailOf(ctx.decisions[0])).toContain('the last 4 messages')
  })

  it("faithful mode gates on falai's own estimate: tool-call arguments are not counted", async () => {
    // Arguments of 40,000 chars: exact counting is over 1,000 tokens, falai's estimate is not.
    const conv = conversation([
      user('u0', 'hello'),
      calls('a1', [['c1', 'write_file', { body: big(40_000) }]]),
      result('t2', 'c1', 'write_file', 'abc'),
      user('u3', 'a'),
      user('u4', 'b'),
      user('u5', 'c'),
      user('u6', 'd'),
    ])
    const h = harness(conv)
    const probe = new StrategyContext(
      h.view,
      h.protections,
      'x',
      0,
      { contextTokens: 0, reservedOutput: 0, buffer: 0, usable: 0 },
      undefined,
    )
    // (5+4) + (2+4: content null) + (3 + 10 + 4) + 4×(1+4) = 52 chars → 13 tokens
    expect(falaiEstimate(probe)).toBe(13)
    const faithful = await run(toolResultBudgetStrategy, h, { maxTokens: 1000, faithful: true })
    expect(faithful.decisions[0]?.reason).toBe('below_threshold')
    expect(detailOf(faithful.decisions[0])).toContain("falai's estimate")
    const fixed = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    expect(fixed.decisions.some((d) => d.reason === 'below_threshold')).toBe(false)
  })

  it('hard case 17: idempotent — a second pass never re-truncates (fixed)', async () => {
    const h = harness(history())
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    const once = partText(h.view, 2)
    const second = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 }, 1)
    expect(partText(h.view, 2)).toBe(once)
    expect(second.decisions.map((d) => d.reason)).toEqual(['already_compacted'])
    expect(detailOf(second.decisions[0])).toContain('rewrite the notice to "5052 chars total"')
  })

  it("hard case 17, faithful: falai's second pass rewrites the notice with a new total", async () => {
    const h = harness(history())
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000, faithful: true })
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000, faithful: true }, 1)
    const total = 5000 + truncationNotice(12000, 5000).length
    expect(total).toBe(5052)
    expect(partText(h.view, 2)).toBe(
      `${big(5000)}\n\n[Truncated: ${total} chars total, showing first 5000]`,
    )
  })

  it('fixed: a smaller budget cuts an already-truncated body further and keeps the original total', () => {
    const once = `${big(5000)}${truncationNotice(12000, 5000)}`
    const plan = planTruncation(once, 2000, false)
    expect(plan).toMatchObject({
      kind: 'truncate',
      text: `${big(2000)}${truncationNotice(12000, 2000)}`,
      total: 12000,
    })
    // micro_compact turns "\n\n" before the notice into one space: still recognised
    const collapsed = `${big(5000)} [Truncated: 12000 chars total, showing first 5000]`
    expect(planTruncation(collapsed, 5000, false)).toMatchObject({ kind: 'already', total: 12000 })
  })

  it('hard case 16: a truncation that makes the result longer is not applied (fixed), is in faithful', async () => {
    const fixed = harness(history(big(5001)))
    const ctx = await run(toolResultBudgetStrategy, fixed, { maxTokens: 100 })
    expect(partText(fixed.view, 2)).toBe(big(5001))
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['no_savings'])
    const faithful = harness(history(big(5001)))
    await run(toolResultBudgetStrategy, faithful, { maxTokens: 100, faithful: true })
    expect(partText(faithful.view, 2)).toBe(`${big(5000)}${truncationNotice(5001, 5000)}`)
  })

  it('hard case 18: a message-count tail inside a tool group — fixed keeps the whole group', async () => {
    // preserveRecentCount 2: the last two messages are results r2 and r3; r1 and the call lie before the cut.
    const conv = conversation([
      user('u0', 'read three files'),
      calls('a1', [
        ['c1', 'read_file', { path: 'a' }],
        ['c2', 'read_file', { path: 'b' }],
        ['c3', 'read_file', { path: 'c' }],
      ]),
      result('t2', 'c1', 'read_file', big(8000, 'a')),
      result('t3', 'c2', 'read_file', big(8000, 'b')),
      result('t4', 'c3', 'read_file', big(8000, 'c')),
    ])
    const fixed = harness(conv)
    const ctx = await run(toolResultBudgetStrategy, fixed, {
      maxTokens: 1000,
      preserveRecentCount: 2,
    })
    expect(partText(fixed.view, 2)).toBe(big(8000, 'a'))
    expect(ctx.decisions[0]?.reason).toBe('keep_recent')
    expect(detailOf(ctx.decisions[0])).toContain('extended to its whole tool group')
    const faithful = harness(conv)
    await run(toolResultBudgetStrategy, faithful, {
      maxTokens: 1000,
      preserveRecentCount: 2,
      faithful: true,
    })
    expect(partText(faithful.view, 2)).toBe(`${big(5000, 'a')}${truncationNotice(8000, 5000)}`)
    expect(partText(faithful.view, 3)).toBe(big(8000, 'b'))
  })

  it('keeps image blocks of a truncated result (never cut)', async () => {
    const conv = history()
    const t2 = conv.messages[2]
    const withImage = {
      ...conv,
      messages: conv.messages.map((m) =>
        m === t2 && m.parts[0]?.kind === 'tool_result'
          ? {
              ...m,
              parts: [
                {
                  ...m.parts[0],
                  content: [
                    ...m.parts[0].content,
                    { kind: 'image' as const, bytes: 0, url: 'https://x/y.png' },
                  ],
                },
              ],
            }
          : m,
      ),
    }
    const h = harness(withImage)
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    const part = h.view.part({ message: 2, part: 0 })
    expect(part?.kind === 'tool_result' && part.content.map((c) => c.kind)).toEqual([
      'text',
      'image',
    ])
  })

  it('protected tools are refused by the context and recorded', async () => {
    const h = harness(history(), { protections: { tools: ['read_file'] } })
    const ctx = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    expect(partText(h.view, 2)).toBe(big(12_000))
    expect(ctx.decisions[0]).toMatchObject({ kind: 'protected', protection: 'protected_tool' })
  })

  it('rejects invalid options with falai’s messages and defaults to its values', () => {
    const s = toolResultBudgetStrategy.schema
    expect(s.parse({})).toEqual({
      compactionThreshold: 0.8,
      preserveRecentCount: 4,
      maxToolResultChars: 5000,
      faithful: false,
    })
    expect(() => s.parse({ compactionThreshold: 0.4 })).toThrow(
      'compactionThreshold must be between 0.5 and 0.95',
    )
    expect(() => s.parse({ compactionThreshold: 0.96 })).toThrow(
      'compactionThreshold must be between 0.5 and 0.95',
    )
    expect(() => s.parse({ preserveRecentCount: 1 })).toThrow('preserveRecentCount must be >= 2')
    expect(() => s.parse({ maxToolResultChars: 0 })).toThrow('maxToolResultChars must be > 0')
    expect(() => s.parse({ maxTokens: 0 })).toThrow('maxTokens must be > 0')
  })
})
