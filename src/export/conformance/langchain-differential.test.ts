/**
 * The LangChain differential check (issue 11): the exported middleware, built by the real
 * `langchain` package inside a real `createAgent` loop, replays transcripts next to the lab's own
 * replay under the same config, call by call (see `langchain-differential.mts`). Every config of
 * the conformance matrix runs, scaled so its window is half the transcript (the presets are
 * written for 100k–200k windows; scaled, their triggers fire on these transcripts).
 *
 * What must hold, per config and transcript:
 * - under the config the exported middleware means (`alignedConfig`, read back from the built
 *   options), the lab sends exactly what LangChain sends, except calls where LangChain summarised
 *   where the lab kept the messages (`summaryPolicy`, a warning of every summarising export);
 * - under the config itself, every differing call is explained by the export's warnings: a config
 *   whose export has none agrees on every call.
 * The hand-written transcripts always run; the shared corpus adds real ones when it is present.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CompactionConfig } from '../../config/schema.ts'
import { scaleTo } from '../../config/scale.ts'
import { prepare } from '../../engine/compaction/prepared.ts'
import type { Conversation } from '../../engine/model.ts'
import { estimateCounter } from '../../engine/tokens/index.ts'
import { importTranscript } from '../../formats/index.ts'
import { configOf } from '../targets/index.testing.ts'
import { exportTarget } from '../targets/index.ts'
import { CONFORMANCE_CONFIGS } from './configs.testing.ts'
import { codingSession } from './differential-fixtures.testing.ts'
import {
  differential,
  labConversation,
  replayable,
  type Differential,
} from './langchain-differential.mts'

/** `config` scaled so that its usable window is half the transcript's tokens. */
function scaledFor(conversation: Conversation, config: CompactionConfig): CompactionConfig {
  const p = prepare(labConversation(replayable(conversation)), estimateCounter)
  const total = p.staticTokens + p.systemTokens + p.messageTokens.reduce((a, b) => a + b, 0)
  const s = scaleTo(config, total, 0.5)
  return configOf(JSON.parse(JSON.stringify({ ...config, window: s.window, pipeline: s.pipeline })))
}

interface Row {
  readonly config: string
  calls: number
  agreeing: number
  summaryPolicy: number
  alignedAgreeing: number
  alignedCalls: number
  compacted: number
}
const rows = new Map<string, Row>()

function record(name: string, d: Differential): void {
  const row = rows.get(name) ?? {
    config: name,
    calls: 0,
    agreeing: 0,
    summaryPolicy: 0,
    alignedAgreeing: 0,
    alignedCalls: 0,
    compacted: 0,
  }
  row.calls += d.calls
  row.agreeing += d.full.agreeing
  row.summaryPolicy += d.full.summaryPolicy
  if (typeof d.aligned !== 'string') {
    row.alignedAgreeing += d.aligned.agreeing + d.aligned.summaryPolicy
    row.alignedCalls += d.calls
    row.compacted += d.aligned.compacted
  }
  rows.set(name, row)
}

/** The assertions of one config on one transcript (see the file comment). */
async function check(
  label: string,
  conversation: Conversation,
  name: string,
  base: CompactionConfig,
) {
  const config = scaledFor(conversation, base)
  const d = await differential(conversation, config, estimateCounter)
  record(name, d)
  const warnings = exportTarget('langchain', config).warnings
  expect(d.calls, label).toBeGreaterThan(0)
  if (typeof d.aligned === 'string') {
    // No exact counterpart: the export must say why in a warning of its own.
    expect(warnings.length, `${label}: ${d.aligned}`).toBeGreaterThan(0)
  } else {
    expect(d.aligned.differing, `${label} (aligned): ${JSON.stringify(d.aligned.first)}`).toBe(0)
    if (d.aligned.summaryPolicy > 0)
      expect(warnings.map((w) => w.message).join(' '), label).toMatch(
        /summarises on every model call/,
      )
  }
  if (warnings.length === 0) {
    expect(d.full.agreeing, `${label}: ${JSON.stringify(d.full.first)}`).toBe(d.calls)
  }
}

describe('LangChain differential check: hand-written transcripts', () => {
  const transcripts = [
    ['6 turns', codingSession(6)],
    ['9 short turns', codingSession(9, 60)],
  ] as const
  it.each(CONFORMANCE_CONFIGS.map(([name, config]) => [name, config] as const))(
    '%s',
    async (name, config) => {
      for (const [label, conversation] of transcripts)
        await check(`${name} on ${label}`, conversation, name, config)
    },
  )

  it('is not vacuous: the middleware compacted on most configs', () => {
    const compacting = [...rows.values()].filter((r) => r.compacted > 0).map((r) => r.config)
    expect(compacting).toEqual(
      expect.arrayContaining(['anthropic-clear-tool-uses', 'langchain-exact', 'recommended']),
    )
    expect(compacting.length).toBeGreaterThanOrEqual(8)
  })
})

/**
 * Real transcripts from the shared corpus (../shared/corpus, outside the repository). Only those
 * with up to 60 model calls, to keep `npm test` fast; the longer ones run the same way but take
 * tens of seconds each.
 */
const CORPUS = resolve(__dirname, '../../../../shared/corpus')
const MAX_CALLS = 60

function corpusTranscripts(): { name: string; conversation: Conversation }[] {
  const out: { name: string; conversation: Conversation }[] = []
  for (const folder of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const file of readdirSync(dir).sort()) {
      const outcome = importTranscript(readFileSync(join(dir, file), 'utf8'), { fileName: file })
      if (!outcome.result.ok) continue
      const calls = replayable(outcome.result.conversation).messages.filter((m) => m.kind === 'ai')
      if (calls.length >= 3 && calls.length <= MAX_CALLS)
        out.push({ name: `${folder}/${file}`, conversation: outcome.result.conversation })
    }
  }
  return out
}

if (existsSync(CORPUS)) {
  describe('LangChain differential check: corpus transcripts', () => {
    const transcripts = corpusTranscripts()
    it('finds replayable transcripts', () => expect(transcripts.length).toBeGreaterThan(3))
    it.each(CONFORMANCE_CONFIGS.map(([name, config]) => [name, config] as const))(
      '%s',
      async (name, config) => {
        for (const t of transcripts)
          await check(`${name} on ${t.name}`, t.conversation, name, config)
      },
    )
  })
} else {
  console.warn(
    `LangChain differential on the corpus: ${CORPUS} not found (the corpus is not part of the repository), so only the hand-written transcripts run`,
  )
}

afterAll(() => {
  // The agreement table of the issue's closing note, on every transcript that ran.
  const lines = [...rows.values()].map(
    (r) =>
      `${r.config.padEnd(26)} calls ${String(r.calls).padStart(5)}  agree ${String(r.agreeing).padStart(5)}  +summary-policy ${String(r.summaryPolicy).padStart(4)}  aligned ${r.alignedCalls === 0 ? '   n/a' : `${r.alignedAgreeing}/${r.alignedCalls}`}  compacted ${r.compacted}`,
  )
  console.log(
    `LangChain differential (full config vs LangChain; aligned = the export's own meaning):\n${lines.join('\n')}`,
  )
})
