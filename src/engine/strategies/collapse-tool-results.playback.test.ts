import { describe, expect, it } from 'vitest'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import type { ProtectionConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import { estimateCounter } from '../tokens/index.ts'
import { collapseToolResultsStrategy as strategy } from './collapse-tool-results.ts'
import { calls, conversation, result, run, user } from './summarize/testing.ts'
import { writingSentences } from '../compaction/sentence.ts'

// A re-plan plays back the last run (step-records.ts) only when nothing it depends on
// changed: each case compares a second run on the SAME prepared conversation (a record exists)
// with a run on a fresh one (computed from scratch), decision for decision and part for part.

const big = (chars: number, c = 'x') => c.repeat(chars)
const example = () =>
  conversation([
    user('m0', 'read'),
    calls('m1', [['c1', 'read_file', { path: 'a.ts' }]]),
    result('m2', 'c1', 'read_file', big(3_000)),
    calls('m3', [['c2', 'grep', { q: 'b' }]]),
    result('m4', 'c2', 'grep', big(3_000, 'b')),
    calls('m5', [['c3', 'read_file', { path: 'c.ts' }]]),
    result('m6', 'c3', 'read_file', big(3_000, 'c')),
    user('m7', 'thanks'),
  ])

interface Second {
  readonly params?: Record<string, unknown>
  readonly protections?: Partial<ProtectionConfig>
  readonly before?: (view: WorkingView) => void
}

async function runOn(prepared: Prepared, o: Second) {
  const view = new WorkingView(prepared)
  o.before?.(view)
  const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...o.protections })
  const h = { view, protections, usable: 100_000, summarizer: undefined }
  // A new params object per run (run parses them), as every edit in the app gives the engine.
  const ctx = await run(strategy, h, structuredClone(o.params ?? {}))
  const decisions = JSON.stringify(ctx.decisions, writingSentences)
  return { decisions, summaries: JSON.stringify(view.summaries()) }
}

async function compare(second: Second) {
  const c = example()
  const prepared = prepare(c, estimateCounter)
  const a = await runOn(prepared, {})
  const again = await runOn(prepared, second)
  const fresh = await runOn(prepare(c, estimateCounter), second)
  return { a, again, fresh }
}

describe('collapse-tool-results: playback of the last run', () => {
  it('an unchanged re-plan decides exactly what the first run decided', async () => {
    const { a, again, fresh } = await compare({})
    expect(again).toEqual(a)
    expect(again).toEqual(fresh)
    expect(a.decisions).toContain('tool_result_compaction')
  })

  it('an edit of the params runs the step again', async () => {
    const { a, again, fresh } = await compare({ params: { maxSummaryChars: 100 } })
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })

  it('a protection set elsewhere in the config is honoured', async () => {
    const { again, fresh } = await compare({ protections: { tools: ['grep'] } })
    expect(again).toEqual(fresh)
  })

  it('a view an earlier step changed runs the step again', async () => {
    const before = (view: WorkingView) =>
      view.exclude(view.prepared.grouping.groupOfMessage[1] as number)
    const { a, again, fresh } = await compare({ before })
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })
})
