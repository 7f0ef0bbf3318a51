import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../compaction/context.ts'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Conversation } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { toolPayloadTrimStrategy as strategy } from './tool-payload-trim.ts'
import {
  assistant,
  big,
  call,
  conv,
  FILE_V1,
  READ,
  result,
  tool,
  user,
} from './tool-payload-trim/testing.mts'
import { writingSentences } from '../compaction/sentence.ts'

// Edits of the thresholds (every keystroke on them in the app) reuse per-part state: call facts,
// result shapes, sentence templates, plain-text trims built around shared pieces. Every run of a
// sequence of edits on ONE prepared conversation must decide and write exactly what a run on a
// fresh conversation does, whatever came before — back and forth across field sizes, with the
// faithful mode toggled, and on a view an earlier step touched (no playback: the memos decide).

/** An earlier pass's output: a call whose `content` is already omitted, with the meta. */
const compacted = {
  path: 'B.php',
  content: '[omitted]',
  extra: big('e', 150),
  _tool_compaction: {
    thresholdBytes: 100,
    omittedFields: { content: { bytes: 1390, sha256: 'ab'.repeat(32) } },
  },
}

const example = (): Conversation =>
  conv([
    user('go'),
    assistant(call('r1', 'read_file_content', READ)),
    tool(result('r1', FILE_V1)),
    assistant(call('s1', 'search', { q: 'x', note: big('n1', 120), more: big('m1', 400) })),
    tool(result('s1', JSON.stringify({ hits: big('h1', 130), count: 3, tail: big('t1', 900) }))),
    assistant(call('p1', 'shell', compacted)),
    tool(result('p1', big('plain1', 110))),
    assistant(call('q1', 'shell', { cmd: 'ls' })),
    tool(result('q1', big('plain2', 2_000))),
    assistant(call('r2', 'read_file_content', READ)),
    tool(result('r2', FILE_V1)),
    assistant(call('s2', 'search', { q: 'x', note: big('n2', 120), more: big('m2', 400) })),
    tool(result('s2', JSON.stringify({ hits: big('h2', 130), count: 4, tail: big('t2', 900) }))),
    assistant(call('p2', 'shell', { cmd: 'make' })),
    tool(result('p2', 'ok')),
  ])

async function runOn(prepared: Prepared, params: Record<string, unknown>, touched: boolean) {
  const view = new WorkingView(prepared)
  // Excluding the opening group makes the view one an earlier step changed: no playback.
  if (touched) view.exclude(prepared.grouping.groupOfMessage[0] as number)
  const prot = computeProtections(view, DEFAULT_PROTECTIONS)
  const window = { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 }
  const ctx = new StrategyContext(view, prot, strategy.id, 0, window, undefined)
  // A new params object per run, as every edit in the app gives the engine.
  await strategy.run(ctx, strategy.schema.parse(structuredClone(params)))
  const parts = prepared.conversation.messages.map((m, i) =>
    m.parts.map((_, j) => view.part({ message: i, part: j })),
  )
  return {
    decisions: JSON.stringify(ctx.decisions, writingSentences),
    parts: JSON.stringify(parts),
  }
}

const EDITS: readonly Record<string, unknown>[] = [
  { inputTrimBytes: 100, outputTrimBytes: 100 },
  { inputTrimBytes: 101, outputTrimBytes: 115 },
  { inputTrimBytes: 130, outputTrimBytes: 140 },
  { inputTrimBytes: 100, outputTrimBytes: 100 },
  { inputTrimBytes: 500, outputTrimBytes: 1_000 },
  { inputTrimBytes: 100, outputTrimBytes: 100, faithful: true },
  { inputTrimBytes: 99, outputTrimBytes: 5_000 },
  { inputTrimBytes: 100, outputTrimBytes: 100 },
  { inputTrimBytes: 5_000, outputTrimBytes: 50 },
  { inputTrimBytes: 101, outputTrimBytes: 115 },
  { inputTrimBytes: 0, outputTrimBytes: 0 },
  { inputTrimBytes: 100, outputTrimBytes: 100 },
]

describe('tool-payload-trim: threshold edits on one prepared conversation', () => {
  for (const touched of [false, true]) {
    it(`decide as a fresh run after every edit (${touched ? 'touched view' : 'untouched view'})`, async () => {
      const c = example()
      const prepared = prepare(c, estimateCounter)
      const seen = new Set<string>()
      for (const params of EDITS) {
        const again = await runOn(prepared, params, touched)
        const fresh = await runOn(prepare(c, estimateCounter), params, touched)
        expect(again, JSON.stringify(params)).toEqual(fresh)
        seen.add(again.decisions)
      }
      // The edits do change what is decided (the sequence is not trivially constant).
      expect(seen.size).toBeGreaterThan(5)
    })
  }

  it('the sentences name the new threshold, and a plain-text trim its meta', async () => {
    const prepared = prepare(example(), estimateCounter)
    await runOn(prepared, { inputTrimBytes: 100, outputTrimBytes: 100 }, false)
    const edited = await runOn(prepared, { inputTrimBytes: 123, outputTrimBytes: 117 }, false)
    expect(edited.decisions).toContain('over outputTrimBytes=117')
    expect(edited.decisions).toContain('over inputTrimBytes=123')
    expect(edited.decisions).not.toContain('TrimBytes=100')
    expect(edited.parts).toContain('"thresholdBytes":117')
    expect(edited.parts).not.toContain(
      '"thresholdBytes":100,"omittedFields":{"content":{"bytes":2008',
    )
  })
})
