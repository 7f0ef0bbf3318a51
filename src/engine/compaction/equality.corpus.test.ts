import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  BASELINE,
  CORPUS,
  corpusSources,
  generatedSources,
  hashSource,
  type CaseHashes,
} from './equality.testing.mts'

/**
 * The engine decides exactly as before (issue 14): same decisions (with their sentences), same
 * projection, same replay points as the baseline written by the engine before it became
 * incremental, for every corpus file × every preset and for generated transcripts. Regenerate the
 * baseline only for an intended change of behaviour: `node bin/run-ts.mjs scripts/write-equality-baseline.ts`.
 */
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<
  string,
  Record<string, CaseHashes>
>
const present = existsSync(CORPUS)
if (!present)
  console.log(`equality over the corpus skipped: ${CORPUS} not found (generated cases still run)`)

describe('the engine decides as the baseline did', () => {
  it('generated transcripts × every preset', async () => {
    const sources = await generatedSources()
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) {
      expect(await hashSource(source), source.name).toEqual(baseline[source.name])
    }
  })

  it.skipIf(!present)('corpus × every preset', async () => {
    const sources = corpusSources()
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) {
      expect(baseline[source.name], `${source.name} is not in the baseline`).toBeDefined()
      expect(await hashSource(source), source.name).toEqual(baseline[source.name])
    }
  })
})
