import type { BrowserResult } from './browser.ts'
import type { CompactionBench } from './compaction.ts'
import type { ImportResult } from './importers.ts'
import { renderBrowser } from './report-browser.ts'
import { renderCompaction } from './report-compaction.ts'
import { renderIssue14, type Issue14Inputs } from './report-issue14.ts'
import type { CategoryResult, PathologicalResult } from './tokens.ts'
import { pushAll } from '../src/engine/arrays.ts'

interface Results {
  date: string
  machine: { node: string; cpus: number; cpu: string }
  imports: ImportResult[]
  endToEnd: { bytes: number; ms: number; tokens: number }
  tokens: {
    categories: CategoryResult[]
    typicalMix: { oursColdMBps: number; oursWarmMBps: number; jsTiktokenMBps: number }
    rankBuildMs: number
  }
  pathological: PathologicalResult[]
  compaction: CompactionBench
  browser: BrowserResult
  start: Issue14Inputs['start']
  cli: Issue14Inputs['cli']
  load: Issue14Inputs['load']
  /** Reconciliation accuracy per corpus file (Markdown table), when the corpus is present. */
  accuracy: { readonly table: string | null; readonly note: string }
}

/**
 * How the bench's own TypeScript runs, since it changed what every engine figure means: tsx's
 * compile (used until 2026-11-28) made each replay about 13% slower than the shipped bundles do.
 */
const LOADER_NOTE =
  "How the engine runs here: `bin/run-ts.mjs` compiles the project's TypeScript file by file with esbuild and no `keepNames` (bin/ts-hooks.mjs), as the app's worker bundle (Vite) and the CLI's bundle (esbuild) are built; tsx still resolves modules. Until 2026-11-28 tsx compiled them too: it always sets `keepNames`, which wraps every function made at run time in a call that redefines its `name`. In alternating processes on the same code that made the replays about 13% slower (recommended, 1,000 calls 15.0 → 12.95 ms, 5,000 calls 80.3 → 70.0 ms) and left their 5k/1k ratio as it was (5.29 and 5.28). Earlier results in git history were measured that way."

/** The human-readable results file (the JSON beside it has every figure). */
export function renderMarkdown(r: Results): string {
  const out: string[] = []
  out.push(
    '# Bench results',
    '',
    `Measured ${r.date} on ${r.machine.cpu} (${r.machine.cpus} cpus), Node ${r.machine.node}. Medians; ranges in results.json.`,
    '',
    LOADER_NOTE,
    '',
    '## Import (sniff + detect + parse) vs plain JSON.parse of the same bytes',
    '',
    '| source | format | MB | messages | import MB/s | JSON.parse MB/s | fraction |',
    '|---|---|---|---|---|---|---|',
  )
  for (const i of r.imports) {
    out.push(
      `| ${i.source} | ${i.format} | ${(i.bytes / 1e6).toFixed(2)} | ${i.messages} | ${i.importMBps} | ${i.jsonParseMBps ?? 'n/a'} | ${i.fractionOfJsonParse ?? 'n/a'} |`,
    )
  }
  out.push(
    '',
    `End to end (import + exact o200k count, one pass): ${(r.endToEnd.bytes / 1e6).toFixed(1)} MB → ${r.endToEnd.tokens} tokens in ${r.endToEnd.ms} ms.`,
    '',
    '## Exact counting (o200k_base) vs js-tiktoken `encode` on the same messages',
    '',
    `Rank table build: ${r.tokens.rankBuildMs} ms. Cold = a fresh counter (empty memo) after a JIT warm-up on other text; warm = the same text again.`,
    '',
    '| category | MB | ours cold MB/s | ours warm MB/s | js-tiktoken MB/s | same tokens |',
    '|---|---|---|---|---|---|',
  )
  for (const c of r.tokens.categories) {
    out.push(
      `| ${c.category} | ${(c.bytes / 1e6).toFixed(2)} | ${c.oursColdMBps} | ${c.oursWarmMBps} | ${c.jsTiktokenMBps} | ${c.equal ? 'yes' : 'NO'} |`,
    )
  }
  const m = r.tokens.typicalMix
  out.push(
    `| **typical mix** (code+json+prose+minified) | | **${m.oursColdMBps}** | **${m.oursWarmMBps}** | ${m.jsTiktokenMBps} | |`,
    '',
    '## Pathological runs (one count() call, ms)',
    '',
    '| input | 1k | 10k | 100k | 1M | js-tiktoken 1k |',
    '|---|---|---|---|---|---|',
  )
  const byInput = new Map<string, PathologicalResult[]>()
  for (const p of r.pathological) byInput.set(p.input, [...(byInput.get(p.input) ?? []), p])
  for (const [input, rows] of byInput) {
    const cell = (i: number) => (rows[i] ? `${rows[i].oursMs}` : '')
    out.push(
      `| ${input} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${cell(3)} | ${rows[0]?.jsTiktokenMs ?? ''} |`,
    )
  }
  pushAll(out, renderCompaction(r.compaction))
  pushAll(out, renderBrowser(r.browser))
  out.push(
    '',
    '## Accuracy: reconstructed context per call vs the usage the transcript reported',
    '',
    r.accuracy.note,
    '',
  )
  if (r.accuracy.table) out.push(r.accuracy.table)
  pushAll(
    out,
    renderIssue14({
      compaction: r.compaction,
      browser: r.browser,
      start: r.start,
      cli: r.cli,
      load: r.load,
    }),
  )
  return out.join('\n') + '\n'
}
