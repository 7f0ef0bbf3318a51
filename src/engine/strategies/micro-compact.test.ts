import { describe, expect, it } from 'vitest'
import { collapseWhitespace, microCompactStrategy } from './micro-compact.ts'
import { toolResultBudgetStrategy } from './tool-result-budget.ts'
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

const json = JSON.stringify(
  { files: Array.from({ length: 200 }, (_, i) => ({ name: `f${i}.ts`, size: i })) },
  null,
  4,
)

function history(output = json) {
  return conversation([
    user('u0', 'list the files'),
    calls('a1', [['c1', 'list_dir', { path: '.' }]]),
    result('t2', 'c1', 'list_dir', output),
    user('u3', 'and now?'),
    assistant('a4', 'Here they are.'),
    user('u5', 'thanks'),
    assistant('a6', 'You are welcome.'),
  ])
}

describe('micro-compact (falai micro_compact)', () => {
  it('collapses every whitespace run to one space and trims', () => {
    expect(collapseWhitespace('  a  \n\t b\n\n c  ')).toBe('a b c')
    expect(collapseWhitespace('{\n    "a": 1\n}')).toBe('{ "a": 1 }')
  })

  it('collapses whitespace in tool results before the preserved tail', async () => {
    const h = harness(history())
    const ctx = await run(microCompactStrategy, h, { maxTokens: 1000 })
    expect(partText(h.view, 2)).toBe(collapseWhitespace(json))
    expect(ctx.decisions).toHaveLength(1)
    expect(ctx.decisions[0]).toMatchObject({
      kind: 'trim',
      reason: 'whitespace_collapsed',
      groupId: 'ga1',
    })
    expect(detailOf(ctx.decisions[0])).toContain(`${json.length.toLocaleString('en-US')} → `)
  })

  it('does nothing under the threshold', async () => {
    const h = harness(history())
    const ctx = await run(microCompactStrategy, h, { maxTokens: 100_000 })
    expect(partText(h.view, 2)).toBe(json)
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
  })

  it('never touches the preserved tail', async () => {
    const h = harness(history())
    const ctx = await run(microCompactStrategy, h, { maxTokens: 1000, preserveRecentCount: 5 })
    expect(partText(h.view, 2)).toBe(json)
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['keep_recent'])
  })

  it('hard case 17: a second pass changes nothing', async () => {
    const h = harness(history())
    await run(microCompactStrategy, h, { maxTokens: 1000 })
    const once = partText(h.view, 2)
    const second = await run(microCompactStrategy, h, { maxTokens: 1000 }, 1)
    expect(partText(h.view, 2)).toBe(once)
    expect(second.decisions).toEqual([])
  })

  it('after tool_result_budget the notice survives micro-compact and is still recognised by a re-run of tier 1', async () => {
    const h = harness(history(`line one\n\n${'word  '.repeat(2000)}`))
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    await run(microCompactStrategy, h, { maxTokens: 1000 }, 1)
    const text = partText(h.view, 2) ?? ''
    // Fixed mode collapses the body but keeps the notice as tier 1 wrote it (idempotence in any order).
    expect(text.endsWith('word\n\n[Truncated: 12010 chars total, showing first 5000]')).toBe(true)
    expect(text.startsWith('line one word word')).toBe(true)
    const again = await run(toolResultBudgetStrategy, h, { maxTokens: 1000 }, 2)
    expect(partText(h.view, 2)).toBe(text)
    expect(again.decisions.every((d) => d.reason !== 'result_truncated')).toBe(true)
  })

  it('faithful mode collapses the notice too, as falai does', async () => {
    const h = harness(history(`line one\n\n${'word  '.repeat(2000)}`))
    await run(toolResultBudgetStrategy, h, { maxTokens: 1000 })
    await run(microCompactStrategy, h, { maxTokens: 1000, faithful: true }, 1)
    expect(
      partText(h.view, 2)?.endsWith(' [Truncated: 12010 chars total, showing first 5000]'),
    ).toBe(true)
  })

  it('fixed mode skips a collapse that saves no tokens; faithful applies it (falai counts chars)', async () => {
    // 10 chars and 9 chars both cost ceil(n/4) = 3 tokens under the test counter.
    const output = 'abcdefghi '
    const fixed = harness(history(output))
    const ctx = await run(microCompactStrategy, fixed, { maxTokens: 10 })
    expect(partText(fixed.view, 2)).toBe(output)
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['no_savings'])
    const faithful = harness(history(output))
    await run(microCompactStrategy, faithful, { maxTokens: 10, faithful: true })
    expect(partText(faithful.view, 2)).toBe('abcdefghi')
  })

  it('rejects invalid options', () => {
    const s = microCompactStrategy.schema
    expect(s.parse({})).toEqual({
      compactionThreshold: 0.8,
      preserveRecentCount: 4,
      faithful: false,
    })
    expect(() => s.parse({ compactionThreshold: 0.4 })).toThrow(
      'compactionThreshold must be between 0.5 and 0.95',
    )
    expect(() => s.parse({ preserveRecentCount: 1 })).toThrow('preserveRecentCount must be >= 2')
  })
})
