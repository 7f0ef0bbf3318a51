import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../config/presets.ts'
import { toEngineConfig } from '../config/validate.ts'
import { prepare } from '../engine/compaction/prepared.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript, isFormatId } from '../formats/index.ts'
import { CORPUS_ROOT, NOT_CONVERSATIONS } from '../formats/testing-corpus.mts'
import { scaledPreset, totalOf, twice } from './fixtures.testing.ts'

/**
 * Issue 10 item 4 on real transcripts: every corpus file × every preset (as shipped, and scaled
 * to 40 % of the file so that it fires), compact → write → re-import → compact changes nothing.
 * Reads ../shared/corpus, which is not part of the repository: without it no test is defined.
 */
const present = existsSync(CORPUS_ROOT)
if (!present) console.log(`fixed-point corpus tests not defined: ${CORPUS_ROOT} not found`)

function corpus(): { format: string; name: string; path: string }[] {
  const out: { format: string; name: string; path: string }[] = []
  for (const folder of readdirSync(CORPUS_ROOT).sort()) {
    const dir = join(CORPUS_ROOT, folder)
    if (!statSync(dir).isDirectory() || !isFormatId(folder)) continue
    for (const name of readdirSync(dir).sort())
      out.push({ format: folder, name, path: join(dir, name) })
  }
  return out
}

describe.skipIf(!present)('corpus: compact on compact’s written output changes nothing', () => {
  let changingRuns = 0
  for (const file of corpus()) {
    const key = `${file.format}/${file.name}`
    it(key, async () => {
      const outcome = importTranscript(readFileSync(file.path, 'utf8'), { fileName: file.name })
      if (NOT_CONVERSATIONS.has(key)) {
        expect(outcome.result.ok).toBe(false)
        return
      }
      expect(outcome.result.ok, JSON.stringify(outcome.result).slice(0, 300)).toBe(true)
      if (!outcome.result.ok) return
      const conversation = outcome.result.conversation
      const total = totalOf(prepare(conversation, estimateCounter))
      const further: string[] = []
      for (const id of PRESET_IDS) {
        for (const [label, config] of [
          ['as shipped', toEngineConfig(presetConfig(id))],
          ['scaled to 40%', scaledPreset(id, total)],
        ] as const) {
          const { first, second } = await twice(conversation, config)
          if (first.changes > 0) changingRuns++
          if (second.changes > 0) further.push(`${id} ${label}: ${second.changes} further changes`)
        }
      }
      expect(further).toEqual([])
    })
  }
  it.skipIf(!present)('the runs above compacted something (the check is not vacuous)', () => {
    expect(changingRuns).toBeGreaterThan(100)
  })
})
