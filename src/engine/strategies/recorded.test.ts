import { describe, expect, it } from 'vitest'
import { generateLargeClaudeCode } from '../../../scripts/sample/generate-large.ts'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { scale } from '../../config/scale.ts'
import { toEngineConfig } from '../../config/validate.ts'
import { importTranscript } from '../../formats/index.ts'
import { accountingFor } from '../accounting/index.ts'
import { canonical } from '../compaction/equality.testing.mts'
import type { StrategyRegistry } from '../compaction/pipeline.ts'
import { prepare, type Prepared } from '../compaction/prepared.ts'
import { replay } from '../compaction/replay.ts'
import { compact } from '../compaction/run.ts'
import type { StrategyContext } from '../compaction/context.ts'
import { defineStrategy } from '../compaction/strategy.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter } from '../tokens/index.ts'
import { STRATEGY_REGISTRY } from './index.ts'
import { runRecorded } from './recorded.ts'
import { z } from 'zod'

const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }

function load(): Prepared {
  const outcome = importTranscript(generateLargeClaudeCode(300_000, 7))
  if (!outcome.result.ok) throw new Error(outcome.result.error.message)
  return prepare(outcome.result.conversation, estimateCounter)
}

const everything = (r: Awaited<ReturnType<typeof compact>>) =>
  canonical({ decisions: r.decisions, projection: r.projection, steps: r.steps })

describe('recorded steps (a re-plan on the same state plays the calls back)', () => {
  it('every preset decides the same on the second run (played back) as on the first', async () => {
    const prepared = load()
    const total = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall)
      .contextTokens
    for (const id of PRESET_IDS) {
      const shipped = toEngineConfig(presetConfig(id))
      const usable = shipped.window.contextTokens - shipped.window.reservedOutput
      for (const config of [shipped, scale(shipped, (0.4 * total) / usable)]) {
        for (const checkIdempotence of [false, true]) {
          const first = await compact(prepared, config, deps, STRATEGY_REGISTRY, {
            checkIdempotence,
          })
          const again = await compact(prepared, config, deps, STRATEGY_REGISTRY, {
            checkIdempotence,
          })
          expect(everything(again), `${id} ${checkIdempotence}`).toBe(everything(first))
          // A fresh prepared conversation (nothing recorded for it) decides the same too.
          const fresh = await compact(
            prepare(prepared.conversation, estimateCounter),
            config,
            deps,
            STRATEGY_REGISTRY,
            { checkIdempotence },
          )
          expect(everything(fresh), `${id} ${checkIdempotence} fresh`).toBe(everything(first))
        }
      }
    }
  })

  /** A strategy that stubs the first tool result it sees, counting how often it really ran. */
  function counting(id: string, recorded = true) {
    const seen = { runs: 0 }
    const strategy = defineStrategy({
      id,
      label: id,
      source: 'test',
      description: 'test',
      schema: z.object({ text: z.string() }),
      run(ctx, p) {
        const stubFirst = (c: StrategyContext, params: { text: string }) => {
          seen.runs++
          for (const g of c.groups())
            for (const m of g.messages)
              c.conversation.messages[m]?.parts.forEach((part, i) => {
                const ref = c.view.refAt(m, i)
                if (part.kind === 'tool_result' && !c.view.isCompacted(ref))
                  c.replace(
                    ref,
                    { ...part, content: [{ kind: 'text', text: params.text }] },
                    'stub',
                    'superseded',
                    id,
                  )
              })
        }
        if (recorded) runRecorded(ctx, p, stubFirst)
        else stubFirst(ctx, p)
      },
    })
    return { seen, strategy }
  }

  it('plays back only when the view holds nothing but recorded changes', async () => {
    const prepared = load()
    const a = counting('a')
    const b = counting('b')
    const c = counting('c', false)
    const registry: StrategyRegistry = new Map([
      ...STRATEGY_REGISTRY,
      ['a', a.strategy],
      ['b', b.strategy],
      ['c', c.strategy],
    ])
    const base = toEngineConfig(presetConfig('recommended'))
    const step = (strategy: string, text: string) => ({
      strategy,
      enabled: true,
      params: { text },
    })
    const config = (pipeline: EngineConfig['pipeline']): EngineConfig => ({
      ...base,
      pipeline,
      fallback: { ...base.fallback, enabled: false },
    })
    const ab = config([step('a', 'A'), step('b', 'B')] as EngineConfig['pipeline'])
    const once = await compact(prepared, ab, deps, registry, { checkIdempotence: false })
    expect([a.seen.runs, b.seen.runs]).toEqual([1, 1])
    const twice = await compact(prepared, ab, deps, registry, { checkIdempotence: false })
    expect([a.seen.runs, b.seen.runs]).toEqual([1, 1])
    expect(canonical(twice.decisions)).toBe(canonical(once.decisions))
    // New params for the first step: both run again (the second one's state changed).
    const ab2 = config([step('a', 'A2'), step('b', 'B')] as EngineConfig['pipeline'])
    await compact(prepared, ab2, deps, registry, { checkIdempotence: false })
    expect([a.seen.runs, b.seen.runs]).toEqual([2, 2])
    // A step that is not recorded changes the view before b: b runs every time.
    const cb = config([step('c', 'C'), step('b', 'B')] as EngineConfig['pipeline'])
    await compact(prepared, cb, deps, registry, { checkIdempotence: false })
    await compact(prepared, cb, deps, registry, { checkIdempotence: false })
    expect([c.seen.runs, b.seen.runs]).toEqual([2, 4])
    // Replay (no skips recorded) always runs the strategy.
    await replay(prepared, ab, deps, registry)
    expect(a.seen.runs).toBeGreaterThan(2)
  })
})
