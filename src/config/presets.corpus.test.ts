import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepare } from '../engine/compaction/prepared.ts'
import { compact } from '../engine/compaction/run.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { NOT_CONVERSATIONS } from '../formats/testing-corpus.mts'
import { PRESET_IDS, presetConfig } from './presets.ts'
import { scale } from './scale.ts'
import { toEngineConfig } from './validate.ts'
import { accountingFor } from '../engine/accounting/index.ts'
import { WorkingView } from '../engine/compaction/view.ts'

/**
 * Every corpus file × every preset (issue 3): no exception and every invariant holds — once with
 * the preset as shipped, and once scaled down to a window of 40 % of the file so that the
 * strategies actually fire on these (mostly small) real transcripts.
 */
const CORPUS = resolve(__dirname, '../../../shared/corpus')
const present = existsSync(CORPUS)
if (!present) console.log(`corpus × preset tests skipped: ${CORPUS} not found`)

function corpusConversations() {
  if (!present) return []
  const out: { name: string; text: string }[] = []
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const f of readdirSync(dir).sort())
      out.push({ name: `${folder}/${f}`, text: readFileSync(join(dir, f), 'utf8') })
  }
  return out
}

describe.skipIf(!present)('every corpus file × every preset', () => {
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }
  for (const file of corpusConversations()) {
    it(file.name, async () => {
      const outcome = importTranscript(file.text, { fileName: file.name })
      if (NOT_CONVERSATIONS.has(file.name)) {
        expect(outcome.result.ok).toBe(false)
        if (!outcome.result.ok) expect(outcome.result.error.message).toMatch(/no messages/)
        return
      }
      expect(outcome.result.ok, JSON.stringify(outcome.result).slice(0, 300)).toBe(true)
      if (!outcome.result.ok) return
      const prepared = prepare(outcome.result.conversation, estimateCounter)
      // What the triggers see: the reconciled context of the next call (after an upstream
      // compaction that is far less than the file holds), not a sum over the whole file.
      const total = new WorkingView(prepared, undefined, accountingFor(prepared).lastCall)
        .contextTokens
      let fired = 0
      // A request body whose context is only an upstream compaction's summary and the new prompt
      // has nothing a config may change: the strategies still decide, and are refused.
      let refused = 0
      for (const id of PRESET_IDS) {
        const config = toEngineConfig(presetConfig(id))
        const usable =
          config.window.contextTokens - config.window.reservedOutput - config.window.buffer
        for (const [label, c] of [
          ['as shipped', config],
          ['scaled to 40%', scale(config, (0.4 * total) / usable)],
        ] as const) {
          const result = await compact(prepared, c, deps, STRATEGY_REGISTRY)
          const broken = result.invariants.checks.filter((x) => !x.ok)
          expect(
            broken,
            `${id} ${label}: ${JSON.stringify(broken.map((b) => [b.id, b.detail]))}`,
          ).toEqual([])
          expect(
            result.decisions.filter((d) => d.kind === 'failed_open'),
            `${id} ${label}`,
          ).toEqual([])
          fired += result.changes
          refused += result.decisions.filter((d) => d.kind === 'protected').length
        }
      }
      // Scaled to 40 % of the context, the presets change every corpus file: the checks above ran
      // on real decisions, not on runs that did nothing.
      expect(fired + refused).toBeGreaterThan(0)
    })
  }
})
