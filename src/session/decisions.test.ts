import { describe, expect, it } from 'vitest'
import { presetConfig } from '../config/presets.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { generateManyGroupsClaudeCode } from '../../scripts/sample/generate-large.ts'
import { importTranscript } from '../formats/index.ts'
import { decisionBuffers, decisionColumns, wireDecisionList } from './decisions.ts'
import { PreparedCache, runSummary, toWireDecision } from './run.ts'
import { MAX_DECISIONS } from './types.ts'

describe('decisions as columns', () => {
  it('read back as exactly the objects they were made from, in order', async () => {
    const { result } = importTranscript(generateManyGroupsClaudeCode(150, 3), {
      fileName: 'many.jsonl',
    })
    if (!result.ok) throw new Error(result.error.message)
    // A small window, so the preset's steps fire and decide about many groups.
    const preset = presetConfig('recommended')
    const config = { ...preset, window: { ...preset.window, contextTokens: 30_000 } }
    const outcome = await runSummary(result.conversation, estimateCounter, config, {
      cache: new PreparedCache(),
    })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const engine = outcome.record.result.decisions.slice(0, MAX_DECISIONS)
    expect(engine.length).toBeGreaterThan(10)
    const columns = outcome.summary.decisions
    expect(columns.length).toBe(engine.length)
    expect(wireDecisionList(columns)).toEqual(engine.map(toWireDecision))
    // Kinds, strategies and reasons repeat: tables far shorter than the decisions.
    expect(columns.reasons.length).toBeLessThan(engine.length)
  })

  it('keep `fixed` and `round` only where a decision has them, and transfer their numbers', () => {
    const base = {
      strategy: 's',
      step: 1,
      reason: 'r',
      detail: 'd',
      groupId: 'g1',
      tokensBefore: 10,
      tokensAfter: 2,
    }
    const columns = decisionColumns([
      { ...base, kind: 'exclude' },
      { ...base, kind: 'stub', fixed: 'src/a.ts', round: 2 },
    ] as Parameters<typeof decisionColumns>[0])
    expect(wireDecisionList(columns)).toEqual([
      { ...base, kind: 'exclude' },
      { ...base, kind: 'stub', fixed: 'src/a.ts', round: 2 },
    ])
    expect(decisionBuffers(columns)).toHaveLength(7)
  })
})
