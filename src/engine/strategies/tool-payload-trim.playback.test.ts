import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../compaction/context.ts'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import type { ProtectionConfig } from '../compaction/types.ts'
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
  READ_CONFIG,
  result,
  tool,
  user,
} from './tool-payload-trim/testing.mts'
import { writingSentences } from '../compaction/sentence.ts'

// A re-plan plays back the last run (step-records.ts) only when nothing it depends on
// changed: every case compares a run on the SAME prepared conversation (a record exists) with a
// run on a fresh one (computed from scratch), decision for decision and part for part.

const example = (): Conversation =>
  conv([
    user('read'),
    assistant(call('r1', 'read_file_content', READ)),
    tool(result('r1', FILE_V1)),
    assistant(call('l1', 'list_files', { path: 'src', note: big('n1', 300) })),
    tool(result('l1', JSON.stringify({ files: big('l1'), count: 40 }))),
    assistant(call('r2', 'read_file_content', READ)),
    tool(result('r2', FILE_V1)),
    assistant(call('l2', 'list_files', { path: 'src', note: big('n2', 300) })),
    tool(result('l2', JSON.stringify({ files: big('l2'), count: 41 }))),
    assistant(call('l3', 'list_files', { path: 'src' })),
    tool(result('l3', '{"files":[],"count":0}')),
  ])

interface RunOptions {
  readonly params?: Record<string, unknown>
  readonly protections?: Partial<ProtectionConfig>
  readonly before?: (view: WorkingView) => void
}

async function runOn(prepared: Prepared, o: RunOptions = {}) {
  const view = new WorkingView(prepared)
  o.before?.(view)
  const prot = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...o.protections })
  const window = { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 }
  const ctx = new StrategyContext(view, prot, strategy.id, 0, window, undefined)
  // A new params object per run, as every edit in the app gives the engine.
  await strategy.run(ctx, strategy.schema.parse(structuredClone(o.params ?? READ_CONFIG)))
  const parts = prepared.conversation.messages.map((m, i) =>
    m.parts.map((_, j) => view.part({ message: i, part: j })),
  )
  return {
    decisions: JSON.stringify(ctx.decisions, writingSentences),
    parts: JSON.stringify(parts),
  }
}

/** The second run on one prepared conversation against a run on a fresh one. */
async function compare(first: RunOptions, second: RunOptions) {
  const c = example()
  const prepared = prepare(c, estimateCounter)
  const a = await runOn(prepared, first)
  const again = await runOn(prepared, second)
  const fresh = await runOn(prepare(c, estimateCounter), second)
  return { a, again, fresh }
}

describe('tool-payload-trim: playback of the last run', () => {
  it('an unchanged re-plan decides exactly what the first run decided', async () => {
    const { a, again, fresh } = await compare({}, {})
    expect(again).toEqual(a)
    expect(again).toEqual(fresh)
    expect(a.decisions).toContain('payload_trimmed')
  })

  it('an edit of the params runs the step again', async () => {
    const params = { ...READ_CONFIG, outputTrimBytes: 5_000, inputTrimBytes: 5_000 }
    const { a, again, fresh } = await compare({}, { params })
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })

  it('a protection that changed elsewhere in the config runs the step again', async () => {
    const protections = { tools: ['list_files'] }
    const { a, again, fresh } = await compare({}, { protections })
    expect(again).toEqual(fresh)
    expect(again.decisions).not.toEqual(a.decisions)
  })

  it('a view an earlier step changed runs the step again', async () => {
    const before = (view: WorkingView) =>
      view.exclude(view.prepared.grouping.groupOfMessage[5] as number)
    const { a, again, fresh } = await compare({}, { before })
    expect(again).toEqual(fresh)
    expect(again).not.toEqual(a)
  })
})
