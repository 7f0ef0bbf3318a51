import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { estimateCounter } from '../tokens/index.ts'
import { compact } from '../compaction/run.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import type { Summarizer } from '../summarize/types.ts'
import { STRATEGY_REGISTRY } from './index.ts'
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
  'summarize',
  'clear-tool-uses',
  'supersede-stale-results',
  'tool-result-budget',
  'micro-compact',
])

describe("summaries played back only from a summariser whose text is its request's", () => {
  const [source] = sources().slice(-1)
  const prepared = prepare(source!.conversation, estimateCounter)
  // Recommended's summary step alone, so that it runs (the steps before it reach its target).
  const recommended = configs(prepared).find(([id]) => id === 'recommended')![1]
  const config = {
    ...recommended,
    pipeline: recommended.pipeline.filter((s) => s.strategy === 'summarize'),
  }
  /** The digest, counting the requests it is asked; `llm`: without a value key (an LLM). */
  const counting = (llm: boolean, maxChars?: number) => {
    const digest = createDigestSummarizer(maxChars === undefined ? {} : { maxChars })
    const calls = { n: 0 }
    const summarizer: Summarizer = {
      id: digest.id,
      label: digest.label,
      isLlm: llm,
      ...(llm ? {} : { valueKey: digest.valueKey }),
      summarize: (request) => {
        calls.n++
        return digest.summarize(request)
      },
    }
    return { summarizer, calls }
  }
  const run = (summarizer: Summarizer) =>
    compact(
      prepared,
      structuredClone(config),
      { counter: estimateCounter, summarizer },
      STRATEGY_REGISTRY,
      {
        checkIdempotence: false,
      },
    )

  it('asks an LLM at every re-plan', async () => {
    const { summarizer, calls } = counting(true)
    for (let i = 0; i < 4; i++) await run(summarizer)
    expect(calls.n).toBe(4)
  })

  it('asks the digest until its run is recorded, then plays it back; other options ask again', async () => {
    const { summarizer, calls } = counting(false)
    const first = await run(summarizer)
    for (let i = 0; i < 3; i++) expect((await run(summarizer)).decisions).toEqual(first.decisions)
    // Seen, recorded, then played back twice.
    expect(calls.n).toBe(2)
    const other = counting(false, 1_000)
    const shorter = await run(other.summarizer)
    expect(other.calls.n).toBe(1)
    expect(shorter.decisions).not.toEqual(first.decisions)
  })
})
