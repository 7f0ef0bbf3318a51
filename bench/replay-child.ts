/**
 * The replay bench's own process (see bench/replay.ts): `run-ts.mjs bench/replay-child.ts
 * quick|full OUT.json`, run with `--expose-gc`. Writes the results to OUT.json.
 */
import { writeFileSync } from 'node:fs'
import { createDigestSummarizer } from '../src/engine/summarize/digest.ts'
import { loadCounter } from '../src/engine/tokens/index.ts'
import { benchReplays } from './replay.ts'

const [mode, outPath] = process.argv.slice(2)
if ((mode !== 'quick' && mode !== 'full') || !outPath)
  throw new Error('usage: bench/replay-child.ts quick|full OUT.json')
// The encoding the main bench counts with (bench/run.ts).
const counter = await loadCounter('o200k_base')
const results = await benchReplays(mode === 'quick', {
  counter,
  summarizer: createDigestSummarizer(),
})
writeFileSync(outPath, JSON.stringify(results))
