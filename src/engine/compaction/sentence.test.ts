import { describe, expect, it } from 'vitest'
import { generateLargeClaudeCode } from '../../../scripts/sample/generate-large.ts'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { scaleTo } from '../../config/scale.ts'
import { toEngineConfig } from '../../config/validate.ts'
import { importTranscript } from '../../formats/index.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter } from '../tokens/index.ts'
import { prepare } from './prepared.ts'
import { compact } from './run.ts'
import { detailOf, written, writingSentences } from './sentence.ts'
import { WorkingView } from './view.ts'

describe('decision sentences', () => {
  it('are written only when read: a run formats none of those it decides in loops', async () => {
    const outcome = importTranscript(generateLargeClaudeCode(600_000, 5))
    if (!outcome.result.ok) throw new Error(outcome.result.error.message)
    const prepared = prepare(outcome.result.conversation, estimateCounter)
    const total = new WorkingView(prepared).contextTokens
    const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
    for (const id of PRESET_IDS) {
      // Scaled so that every preset has to act on this transcript.
      const config = scaleTo(toEngineConfig(presetConfig(id)), total, 0.4)
      const result = await compact(prepared, config, deps, STRATEGY_REGISTRY)
      const decisions = result.decisions
      expect(decisions.length, id).toBeGreaterThan(10)
      // Text made at decision time: a few sentences per step (a step's "not triggered", a
      // sentence shared by every stub of one tool), never one per decision.
      const texts = new Set(
        decisions.flatMap((d) => (typeof d.sentence === 'string' ? [d.sentence] : [])),
      )
      expect(texts.size, id).toBeLessThanOrEqual(Math.max(12, decisions.length / 20))
      // Every one of them reads as a sentence, the same each time it is read.
      for (const d of decisions) {
        const text = detailOf(d)
        expect(text.length, id).toBeGreaterThan(10)
        expect(detailOf(d)).toBe(text)
      }
    }
  })

  it('write into JSON through the replacer, and are never dropped as functions', () => {
    const d = { reason: 'pruned', sentence: () => 'written later' }
    expect(JSON.stringify(d)).toBe('{"reason":"pruned"}')
    expect(JSON.stringify([d], writingSentences)).toBe(
      '[{"reason":"pruned","sentence":"written later"}]',
    )
    expect(written('as is')).toBe('as is')
    expect(detailOf(undefined)).toBeUndefined()
  })
})
