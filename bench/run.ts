/**
 * `npm run bench`: measures import speed, exact counting speed, pathological runs and compaction
 * (re-plan per preset, replay, peers) in one process, writes bench/results.json and
 * bench/RESULTS.md. Figures are never asserted in tests.
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { chromium } from '@playwright/test'
import { findChromium } from '../scripts/chromium-path.mjs'
import { basename, join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import {
  generateLargeClaudeCode,
  generateLargeOpenAIChat,
} from '../scripts/sample/generate-large.ts'
import { inspectConversation } from '../src/engine/inspect.ts'
import { loadCounter } from '../src/engine/tokens/index.ts'
import { importTranscript } from '../src/formats/index.ts'
import {
  accuracyOf,
  accuracyTable,
  CORPUS,
  corpusFiles,
  MIN_CALLS_FOR_PREDICTION,
  MIN_REPORTED_CALLS,
  type AccuracyRow,
} from './accuracy.ts'
import { benchBrowser } from './browser.ts'
import { benchCliScale } from './cli-scale.ts'
import { benchStart, type StartResult } from './start.ts'
import { benchCompaction } from './compaction.ts'
import { replayInChildren } from './replay.ts'
import { benchFleet, renderFleet } from './fleet.ts'
import { benchImport, largestCorpusFiles, readText, type ImportResult } from './importers.ts'
import { renderMarkdown } from './report.ts'
import { benchPathological, benchTokens } from './tokens.ts'
import { once, round } from './timing.ts'

const quick = process.argv.includes('--quick')
const loadAtStart = loadavg()[0] ?? 0
const LARGE = quick ? 5_000_000 : 50_000_000

console.log(
  `compaction-lab bench${quick ? ' (quick)' : ''} — node ${process.version}, ${cpus().length} cpus`,
)

console.log('import speed')
const imports: ImportResult[] = []
for (const { folder, path } of largestCorpusFiles()) {
  imports.push(benchImport(`corpus ${folder}/${basename(path)}`, readText(path), 9))
}
const largeClaude = generateLargeClaudeCode(LARGE, 7)
const largeChat = generateLargeOpenAIChat(LARGE, 7)
imports.push(benchImport(`generated claude-code ${(LARGE / 1e6).toFixed(0)} MB`, largeClaude, 5))
imports.push(benchImport(`generated openai-chat ${(LARGE / 1e6).toFixed(0)} MB`, largeChat, 5))

console.log('end-to-end exact count of the generated claude-code transcript')
const counter = await loadCounter('o200k_base')
let total = 0
const e2eMs = once(() => {
  const outcome = importTranscript(largeClaude)
  if (!outcome.result.ok) throw new Error(outcome.result.error.message)
  total = inspectConversation(outcome.result.conversation, counter).tokens.total
})
const endToEnd = { bytes: largeClaude.length, ms: round(e2eMs, 0), tokens: total }
console.log(`  ${(largeClaude.length / 1e6).toFixed(1)} MB → ${total} tokens in ${endToEnd.ms} ms`)

console.log('exact counting vs js-tiktoken')
const tokens = await benchTokens(quick ? 300_000 : 1_000_000)
console.log('pathological runs')
const pathological = benchPathological()
console.log('compaction: re-plan per preset, replay (in processes of its own), peers')
const compaction = {
  ...(await benchCompaction(quick, counter)),
  ...(await replayInChildren(quick)),
}
console.log('the app in Chromium: drop to first budget, config edits on 10,000 messages')
const browser = await benchBrowser(quick)
console.log(
  'fleet: evaluate over generated transcripts with --jobs 1 and 2, and the same fleet in the app',
)
const fleet = await benchFleet(quick)

console.log('npm start → first view (fresh clone after install)')
let start: StartResult | { skipped: string }
const chromiumPath = findChromium()?.path
if (chromiumPath) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    start = await benchStart(browser)
    console.log(`  first view ${start.firstViewMs} ms (server up ${start.serverReadyMs} ms)`)
  } catch (error) {
    start = { skipped: error instanceof Error ? error.message.slice(0, 200) : String(error) }
    console.log(`  failed: ${start.skipped}`)
  } finally {
    await browser.close()
  }
} else start = { skipped: 'no Chromium found' }
console.log('the CLI at scale: 130× a corpus rollout, a generated 200 MB transcript')
const cli = await benchCliScale(quick)

console.log('accuracy: reconstructed context per call vs reported usage, per corpus file')
const accuracyRows = corpusFiles()
  .map((f) => accuracyOf(f.path, counter))
  .filter((r): r is AccuracyRow => r !== null)
const accuracy = {
  table: accuracyRows.length > 0 ? accuracyTable(accuracyRows) : null,
  note:
    accuracyRows.length > 0
      ? `|err| = |reconstructed − reported| / reported over the calls with a valid reported figure; "predicted" fits on the first half of the calls and measures the second (files with ≥ ${MIN_CALLS_FOR_PREDICTION} reported calls). Files with fewer than ${MIN_REPORTED_CALLS} reported calls are not fitted (the default prefix 0 and scale 1 stand), so their errors are our raw count's. Asserted by bench/accuracy.test.ts.`
      : `The corpus (${CORPUS}) was not found: no accuracy table.`,
}

const results = {
  date: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' },
  quick,
  imports,
  endToEnd,
  tokens,
  pathological,
  compaction,
  browser,
  fleet,
  start,
  cli,
  load: { start: loadAtStart, end: loadavg()[0] ?? 0 },
  accuracy,
}
const dir = import.meta.dirname
/** Written as the formatter would write them, so a committed run passes the format check. */
async function writeFormatted(file: string, text: string): Promise<void> {
  const options = await resolveConfig(file)
  writeFileSync(file, await format(text, { ...options, filepath: file }))
}
await writeFormatted(
  join(dir, quick ? 'results.quick.json' : 'results.json'),
  JSON.stringify(results, null, 2) + '\n',
)
await writeFormatted(
  join(dir, quick ? 'RESULTS.quick.md' : 'RESULTS.md'),
  renderMarkdown(results) + renderFleet(fleet),
)
console.log(
  `wrote bench/${quick ? 'results.quick.json' : 'results.json'} and bench/${quick ? 'RESULTS.quick.md' : 'RESULTS.md'}`,
)
