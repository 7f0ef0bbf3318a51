import { describe, expect, it } from 'vitest'
import { presetConfig } from '../config/presets.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { generateManyGroupsClaudeCode } from '../../scripts/sample/generate-large.ts'
import { importTranscript } from '../formats/index.ts'
import { detailOf } from '../engine/compaction/sentence.ts'
import { decisionBuffers, decisionColumns, sentencesOf, wireDecisionList } from './decisions.ts'
import { PreparedCache, runSummary, toWireDecision } from './run.ts'
import { Session } from './session.ts'
import { MAX_DECISIONS } from './types.ts'

/** The wire form of a decision without its sentence (the columns leave it out). */
function fields(d: Parameters<typeof toWireDecision>[0]) {
  const { detail: _sentence, ...rest } = toWireDecision(d)
  return rest
}

function manyGroups() {
  const { result } = importTranscript(generateManyGroupsClaudeCode(150, 3), {
    fileName: 'many.jsonl',
  })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

/** The recommended preset with a small window, so its steps fire and decide about many groups. */
function smallWindow() {
  const preset = presetConfig('recommended')
  return { ...preset, window: { ...preset.window, contextTokens: 30_000 } }
}

describe('decisions as columns', () => {
  it('read back as exactly the objects they were made from, in order', async () => {
    const outcome = await runSummary(manyGroups(), estimateCounter, smallWindow(), {
      cache: new PreparedCache(),
    })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const engine = outcome.record.result.decisions.slice(0, MAX_DECISIONS)
    expect(engine.length).toBeGreaterThan(10)
    const columns = outcome.summary.decisions
    expect(columns.length).toBe(engine.length)
    expect(wireDecisionList(columns)).toEqual(engine.map(fields))
    // No sentence crosses with the run: not one of them is in the reply.
    const wire = JSON.stringify({ ...columns, kind: [], strategy: [], reason: [], step: [] })
    for (const d of engine.slice(0, 20)) expect(wire).not.toContain(detailOf(d))
    // Kinds, strategies and reasons repeat: tables far shorter than the decisions.
    expect(columns.reasons.length).toBeLessThan(engine.length)
  })

  it('keep `fixed` and `round` only where a decision has them, and transfer their numbers', () => {
    const base = {
      strategy: 's',
      step: 1,
      reason: 'r',
      sentence: 'd',
      groupId: 'g1',
      tokensBefore: 10,
      tokensAfter: 2,
    }
    const columns = decisionColumns([
      { ...base, kind: 'exclude' },
      { ...base, kind: 'stub', fixed: 'src/a.ts', round: 2 },
    ] as Parameters<typeof decisionColumns>[0])
    const { sentence: _sentence, ...rest } = base
    expect(wireDecisionList(columns)).toEqual([
      { ...rest, kind: 'exclude' },
      { ...rest, kind: 'stub', fixed: 'src/a.ts', round: 2 },
    ])
    expect(decisionBuffers(columns)).toHaveLength(7)
  })

  it("give the sentences asked for, written from the run's own decisions", () => {
    let written = 0
    const sentence = () => `sentence ${++written}`
    const decisions = [0, 1, 2].map((i) => ({
      kind: 'exclude' as const,
      strategy: 's',
      step: 0,
      reason: 'truncation' as const,
      sentence: i === 1 ? 'plain text' : sentence,
      groupId: `g${i}`,
      tokensBefore: 1,
      tokensAfter: 0,
    }))
    // Nothing is written until asked, and only what is asked.
    expect(written).toBe(0)
    expect(sentencesOf(7, decisions, [2, 1, 9, -1])).toEqual({
      run: 7,
      indices: [2, 1, 9, -1],
      detail: ['sentence 1', 'plain text', '', ''],
    })
    expect(written).toBe(1)
  })
})

describe('the session answers sentences for its latest run only', () => {
  it('by the number the run reply gave; an earlier run is refused by name', async () => {
    const session = new Session((b) => new TextDecoder().decode(b))
    session.load({ text: generateManyGroupsClaudeCode(150, 3), fileName: 'many.jsonl' })
    const first = await session.run(smallWindow(), undefined)
    const second = await session.run(smallWindow(), undefined)
    if (first.kind !== 'ok' || second.kind !== 'ok') throw new Error('runs did not finish')
    const one = first.value.decisions
    const two = second.value.decisions
    expect(two.run).toBeGreaterThan(one.run)
    const engine = session.lastRun?.result.decisions ?? []
    const asked = session.sentences(two.run, [0, 3])
    expect(asked).toEqual({
      kind: 'ok',
      value: { run: two.run, indices: [0, 3], detail: [detailOf(engine[0]), detailOf(engine[3])] },
    })
    expect(detailOf(engine[3])?.length).toBeGreaterThan(10)
    const stale = session.sentences(one.run, [0])
    expect(stale).toMatchObject({ kind: 'failed', message: expect.stringMatching(/earlier run/) })
  })
})
