/**
 * Writes src/engine/compaction/equality.baseline.json: the hashes the equality test compares
 * against (decisions, projection, replay points per corpus file × preset, and generated cases).
 * Run it only when the engine's behaviour is meant to change; the committed file is the record of
 * what the engine decided before.
 */
import { writeFileSync } from 'node:fs'
import {
  BASELINE,
  corpusSources,
  generatedSources,
  hashSource,
  type CaseHashes,
} from '../src/engine/compaction/equality.testing.mts'

const out: Record<string, Record<string, CaseHashes>> = {}
const sources = [...(await generatedSources()), ...corpusSources()]
for (const source of sources) {
  const t0 = performance.now()
  out[source.name] = await hashSource(source)
  console.log(`${source.name}: ${Math.round(performance.now() - t0)} ms`)
}
writeFileSync(BASELINE, JSON.stringify(out, null, 2) + '\n')
console.log(`wrote ${BASELINE} (${sources.length} sources)`)
