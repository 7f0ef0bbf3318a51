import { describe, expect, it } from 'vitest'
import { loadCounter } from '../src/engine/tokens/index.ts'
import {
  accuracyOf,
  accuracyTable,
  CORPUS,
  corpusFiles,
  MIN_CALLS_FOR_PREDICTION,
  MIN_REPORTED_CALLS,
  type AccuracyRow,
} from './accuracy.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Issue 9 acceptance: on every real transcript that reports per-call usage, the reconstructed
 * context of each call is within median 3 % and p90 10 % of the reported figure, and the model
 * predicts (fitted on the first half, median ≤ 5 % on the second). A file may miss a target only
 * when the transcript itself lacks what would explain the difference — the evidence is computed
 * and printed, at most one such file per format, and its median must still hold.
 */
const files = corpusFiles()
if (files.length === 0)
  console.log(
    `reconciliation accuracy: no test defined, ${CORPUS} not found (the corpus is not in the repo)`,
  )

const TARGET = { median: 0.03, p90: 0.1, predicted: 0.05 }

function misses(r: AccuracyRow): string[] {
  const out: string[] = []
  if ((r.median ?? 0) > TARGET.median) out.push(`median ${(r.median ?? 0) * 100}%`)
  if ((r.p90 ?? 0) > TARGET.p90) out.push(`p90 ${((r.p90 ?? 0) * 100).toFixed(1)}%`)
  if ((r.predicted ?? 0) > TARGET.predicted)
    out.push(`predicted ${((r.predicted ?? 0) * 100).toFixed(1)}%`)
  return out
}

/** What the transcript lacks, when that explains a miss; null when nothing does. */
function evidence(r: AccuracyRow): string | null {
  const text = readFileSync(join(CORPUS, r.file), 'utf8')
  const redacted = text.match(/\[REDACTED_TEXT len=/g)?.length ?? 0
  if (redacted > 100)
    return `${redacted} texts are redaction placeholders ([REDACTED_TEXT len=N]): their size is estimated from the stated length (chars/4), their content is missing`
  // Hidden context that came and went (attachments the agent added without logging them): jumps
  // of the fitted prefix in the half the prediction did not see.
  const rec = r.reconciliation
  const half = rec.figures[Math.ceil(rec.figures.length / 2)]?.index ?? Infinity
  const jumps: string[] = []
  let prev = rec.prefixTokens
  for (const s of rec.steps) {
    if (s.thread !== 'main') continue
    if (s.fromIndex >= half && Math.abs(s.prefixTokens - prev) >= 2000)
      jumps.push(
        `message ${s.fromIndex}: ${s.prefixTokens - prev > 0 ? '+' : ''}${s.prefixTokens - prev}`,
      )
    prev = s.prefixTokens
  }
  if (jumps.length > 0)
    return `the reported context jumps where the log shows nothing new (unlogged context, e.g. re-attached files or an upstream compaction's attachments) in the half the prediction did not see: ${jumps.join(', ')}`
  return null
}

describe('reconciliation accuracy on the real corpus', () => {
  it.skipIf(files.length === 0)(
    'median ≤ 3 %, p90 ≤ 10 %, predicted ≤ 5 % per file (evidence for any exception, one per format)',
    async () => {
      const counter = await loadCounter('o200k_base')
      const rows = files
        .map((f) => accuracyOf(f.path, counter))
        .filter((r): r is AccuracyRow => r !== null)
      const judged = rows.filter((r) => r.reported >= MIN_REPORTED_CALLS)
      console.log(accuracyTable(rows))
      const tooFew = rows.filter((r) => r.reported < MIN_REPORTED_CALLS)
      console.log(
        `not judged (fewer than ${MIN_REPORTED_CALLS} calls with reported usage: nothing to fit): ${tooFew.map((r) => `${r.file} (${r.reported})`).join(', ')}`,
      )
      console.log(
        `prediction judged on files with ≥ ${MIN_CALLS_FOR_PREDICTION} reported calls: ${judged.filter((r) => r.predicted !== null).length}`,
      )
      const exempt = new Map<string, string>()
      const failures: string[] = []
      for (const r of judged) {
        const miss = misses(r)
        if (miss.length === 0) continue
        const why = evidence(r)
        if (why && !exempt.has(r.format) && (r.median ?? 1) <= TARGET.median) {
          exempt.set(r.format, r.file)
          console.log(`EXCEPTION ${r.file}: misses ${miss.join(', ')} — ${why}`)
        } else failures.push(`${r.file}: ${miss.join(', ')}${why ? ` (${why})` : ''}`)
      }
      expect(judged.length).toBeGreaterThanOrEqual(5)
      expect(failures).toEqual([])
    },
  )
})
