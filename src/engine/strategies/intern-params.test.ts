import { describe, expect, it } from 'vitest'
import { generateLargeClaudeCode } from '../../../scripts/sample/generate-large.ts'
import { presetConfig } from '../../config/presets.ts'
import { toEngineConfig } from '../../config/validate.ts'
import { importTranscript } from '../../formats/index.ts'
import { canonical } from '../compaction/equality.testing.mts'
import { prepare } from '../compaction/prepared.ts'
import { compact } from '../compaction/run.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter } from '../tokens/index.ts'
import { STRATEGY_REGISTRY } from './index.ts'
import { internParams } from './intern-params.ts'

describe('internParams', () => {
  it('gives the first object with the same value, and a new value its own object', () => {
    const a = { threshold: 100, fields: { read: ['path'] } }
    expect(internParams('test', a)).toBe(a)
    expect(internParams('test', structuredClone(a))).toBe(a)
    const b = { threshold: 101, fields: { read: ['path'] } }
    expect(internParams('test', b)).toBe(b)
    // Per strategy: another strategy's equal value is not shared.
    const c = structuredClone(a)
    expect(internParams('other', c)).toBe(c)
  })

  it('a re-plan with a cloned config (as the app sends each edit) decides exactly as the first', async () => {
    const outcome = importTranscript(generateLargeClaudeCode(300_000, 7))
    if (!outcome.result.ok) throw new Error(outcome.result.error.message)
    const prepared = prepare(outcome.result.conversation, estimateCounter)
    const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
    for (const id of ['adachsoft', 'maf-context-window'] as const) {
      const config = toEngineConfig(presetConfig(id))
      const first = await compact(prepared, config, deps, STRATEGY_REGISTRY)
      const again = await compact(prepared, structuredClone(config), deps, STRATEGY_REGISTRY)
      expect(canonical(again.decisions), id).toBe(canonical(first.decisions))
      expect(canonical(again.projection), id).toBe(canonical(first.projection))
    }
  })
})
