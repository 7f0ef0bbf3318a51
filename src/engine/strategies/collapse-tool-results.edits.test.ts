import { describe, expect, it } from 'vitest'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { WorkingView } from '../compaction/view.ts'
import { loadCounter, type TextCounter } from '../tokens/index.ts'
import { collapseToolResultsStrategy as strategy } from './collapse-tool-results.ts'
import { calls, conversation, result, run, user } from './summarize/testing.ts'
import { writingSentences } from '../compaction/sentence.ts'

// Edits of the digest cap and of how many groups are kept (every keystroke on them in the app) make new cut digests,
// priced from the full digest's head and the marker without counting the cut text
// (priceSpliceTail). A sequence of edits on ONE prepared conversation with the exact counter must
// decide what a fresh run with a counter that can only count whole texts decides.

const prose = (tag: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${tag} line ${i}: const value_${i} = compute("${tag}", ${i * 7});  // note\n`,
  ).join('')

const example = () =>
  conversation([
    user('m0', 'read'),
    calls('m1', [['c1', 'read_file', { path: 'a.ts' }]]),
    result('m2', 'c1', 'read_file', prose('a', 200)),
    calls('m3', [['c2', 'grep', { q: 'b' }]]),
    result('m4', 'c2', 'grep', prose('b', 40)),
    calls('m5', [
      ['c3', 'read_file', { path: 'c.ts' }],
      ['c4', 'read_file', { path: 'd.ts' }],
    ]),
    result('m6', 'c3', 'read_file', `${prose('c', 50)}\n\n  \t${'é'.repeat(300)} 😀`),
    result('m7', 'c4', 'read_file', prose('d', 300)),
    calls('m8', [['c5', 'ls', { path: '.' }]]),
    result('m9', 'c5', 'ls', 'a.ts b.ts'),
    user('m10', 'thanks'),
  ])

async function runOn(prepared: Prepared, keepLastToolCallGroups: number, maxSummaryChars: number) {
  const view = new WorkingView(prepared)
  const protections = computeProtections(view, DEFAULT_PROTECTIONS)
  const h = { view, protections, usable: 1_000_000, summarizer: undefined }
  const ctx = await run(strategy, h, { keepLastToolCallGroups, maxSummaryChars })
  return {
    decisions: JSON.stringify(ctx.decisions, writingSentences),
    summaries: JSON.stringify(view.summaries()),
  }
}

describe('collapse-tool-results: cap edits on one prepared conversation', () => {
  it('decide as a fresh run that counts every digest whole', async () => {
    const exact = await loadCounter('o200k_base')
    // The same counts, but no splicing: every cut digest is counted as a whole text.
    const whole: TextCounter = { id: exact.id, exact: true, count: (t) => exact.count(t) }
    const c = example()
    const prepared = prepare(c, exact)
    const seen = new Set<string>()
    const edits = [
      [1, 4096],
      [1, 4097],
      [2, 4097],
      [1, 1000],
      [0, 999],
      [1, 4096],
      [2, 300],
      [1, 5000],
      [0, 64],
      [1, 1000],
      [1, 20_000],
      [1, 4096],
    ] as const
    for (const [keep, cap] of edits) {
      const again = await runOn(prepared, keep, cap)
      const fresh = await runOn(prepare(c, whole), keep, cap)
      expect(again, `keepLastToolCallGroups ${keep}, maxSummaryChars ${cap}`).toEqual(fresh)
      expect(again.decisions).toContain('tool_result_compaction')
      seen.add(again.decisions)
    }
    expect(seen.size).toBeGreaterThan(5)
  })
})
