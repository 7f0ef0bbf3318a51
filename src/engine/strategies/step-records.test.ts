import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { estimateCounter } from '../tokens/index.ts'
import { stepRecordCounts } from './step-records.ts'
import { configs, edits, fresh, plan, sources } from './step-records.testing.mts'

// A re-plan plays back every step whose view is in the state its record started from
// (step-records.ts). Each case compares re-plans on ONE long-lived prepared conversation (records
// exist, steps are played back) with a run on a fresh prepare (computed from scratch): decisions
// and projection must be deep-equal, in order.

describe.each(sources())('re-plans played back step by step: $name', ({ conversation }) => {
  const prepared = prepare(conversation, estimateCounter)
  const cases = configs(prepared)

  it.each(cases)('%s: three re-plans equal a fresh run', async (_, config) => {
    const expected = await fresh(conversation, config)
    const played = stepRecordCounts.played
    for (let i = 0; i < 3; i++) expect(await plan(prepared, config)).toEqual(expected)
    // The steps that record did play back (not a comparison of two fresh runs).
    if (config.pipeline.some((s) => RECORDED.has(s.strategy)))
      expect(stepRecordCounts.played).toBeGreaterThan(played)
  })

  it.each(cases)('%s: each edit, then its undo, equals a fresh run', async (_, config) => {
    const original = await fresh(conversation, config)
    await plan(prepared, config)
    for (const [what, edit] of edits(config)) {
      const expected = await fresh(conversation, edit)
      // Seen, recorded, played back (step-records.ts): each must equal the fresh run.
      for (const time of ['first', 'second', 'third'])
        expect(await plan(prepared, edit), `${what}, ${time} time`).toEqual(expected)
      expect(await plan(prepared, config), `${what} undone`).toEqual(original)
    }
  })
})

const RECORDED = new Set([
  'clear-tool-uses',
  'supersede-stale-results',
  'tool-result-budget',
  'micro-compact',
])
