import { describe, expect, it } from 'vitest'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { WorkingView } from '../compaction/view.ts'
import { estimateCounter } from '../tokens/index.ts'
import { pruneToolOutputsStrategy as strategy } from './prune-tool-outputs.ts'
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
    result('m2', 'c1', 'read_file', big(120_000)),
    calls('m3', [['c2', 'read_file', { path: 'b.ts' }]]),
    result('m4', 'c2', 'read_file', big(120_000, 'b')),
    user('m5', 'next'),
    calls('m6', [['c3', 'edit_file', { path: 'c.ts' }]]),
    result('m7', 'c3', 'edit_file', big(120_000, 'e')),
    user('m8', 'thanks'),
    user('m9', 'bye'),
  ])

async function runOn(
  prepared: Prepared,
  params: Record<string, unknown>,
  before?: (v: WorkingView) => void,
) {
  const view = new WorkingView(prepared)
  before?.(view)
  const protections = computeProtections(view, DEFAULT_PROTECTIONS)
  // A new params object per run (run parses them), as every edit in the app gives the engine.
  const ctx = await run(
    strategy,
    { view, protections, usable: 100_000, summarizer: undefined },
    structuredClone(params),
  )
  const parts = prepared.conversation.messages.map((m, i) =>
    m.parts.map((_, j) => view.part({ message: i, part: j })),
  )
  return {
    decisions: JSON.stringify(ctx.decisions, writingSentences),
    parts: JSON.stringify(parts),
  }
}

async function compare(second: Record<string, unknown>, before?: (v: WorkingView) => void) {
  const c = example()
  const prepared = prepare(c, estimateCounter)
  const a = await runOn(prepared, {})
  const again = await runOn(prepared, second, before)
  const fresh = await runOn(prepare(c, estimateCounter), second, before)
  return { a, again, fresh }
}

describe('prune-tool-outputs: playback of the last run', () => {
  it('an unchanged re-plan decides exactly what the first run decided', async () => {
    const { a, again, fresh } = await compare({})
    expect(again).toEqual(a)
    expect(again).toEqual(fresh)
    expect(a.decisions).toContain('"pruned"')
  })

  it('an edit of the params runs the step again', async () => {
    const { a, again, fresh } = await compare({ protectTokens: 100_000 })
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })

  it('a view an earlier step changed runs the step again', async () => {
    const { a, again, fresh } = await compare({}, (view) =>
      view.exclude(view.prepared.grouping.groupOfMessage[1] as number),
    )
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })
})
