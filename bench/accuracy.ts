/**
 * Reconciliation accuracy over the real transcripts of ../shared/corpus: per file, how far the
 * reconstructed context of each model call is from what the transcript reports the provider
 * counted. Shared by the accuracy test (which asserts the targets) and `npm run bench` (which
 * prints the same table beside the speed figures).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { reconcile } from '../src/engine/accounting/reconcile.ts'
import type { Reconciliation } from '../src/engine/accounting/types.ts'
import { prepare } from '../src/engine/compaction/prepared.ts'
import type { TextCounter } from '../src/engine/tokens/types.ts'
import { importTranscript } from '../src/formats/index.ts'
import { DEFAULT_PROTECTIONS } from '../src/engine/compaction/protect.ts'
import { replay } from '../src/engine/compaction/replay.ts'
import type { EngineConfig } from '../src/engine/compaction/types.ts'
import { sessionCost } from '../src/engine/cost/summary.ts'
import { cachingOf } from '../src/engine/cost/tracker.ts'
import { STRATEGY_REGISTRY } from '../src/engine/strategies/index.ts'

export const CORPUS = resolve(import.meta.dirname, '../../shared/corpus')

/** A fit needs this many calls with reported usage; below it the file is listed, not judged. */
export const MIN_REPORTED_CALLS = 3
/** Prediction (fit on the first half, judge the second) needs enough calls to mean anything. */
export const MIN_CALLS_FOR_PREDICTION = 20

export interface AccuracyRow {
  readonly file: string
  readonly format: string
  readonly calls: number
  readonly reported: number
  readonly dropped: number
  readonly median: number | null
  readonly p90: number | null
  /** Median error on the second half of the calls, fitted on the first half only. */
  readonly predicted: number | null
  readonly prefix: number
  readonly scale: number
  readonly steps: number
  readonly rules: string
  readonly reconciliation: Reconciliation
}

export function corpusFiles(): { folder: string; path: string }[] {
  if (!existsSync(CORPUS)) return []
  const out: { folder: string; path: string }[] = []
  for (const folder of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue
    for (const f of readdirSync(join(CORPUS, folder.name)).sort())
      out.push({ folder: folder.name, path: join(CORPUS, folder.name, f) })
  }
  return out
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** The accuracy row of one transcript, or null when it cannot be imported or reports no usage. */
export function accuracyOf(path: string, counter: TextCounter): AccuracyRow | null {
  const outcome = importTranscript(readFileSync(path, 'utf8'), { fileName: path })
  if (!outcome.result.ok) return null
  const prepared = prepare(outcome.result.conversation, counter)
  const r = reconcile(prepared)
  const reported = r.figures.filter((f) => f.reported !== undefined).length
  if (reported === 0) return null
  const n = r.figures.length
  const half = Math.ceil(n / 2)
  const predictedErrors =
    reported >= MIN_CALLS_FOR_PREDICTION
      ? reconcile(prepared, { fitOn: (k) => k < half })
          .figures.slice(half)
          .filter((f) => f.residual !== undefined)
          .map((f) => Math.abs(f.residual as number))
      : []
  return {
    file: path.slice(CORPUS.length + 1),
    format: outcome.result.conversation.meta.format,
    calls: n,
    reported,
    dropped: r.dropped,
    median: r.medianAbsError,
    p90: r.p90AbsError,
    predicted: median(predictedErrors),
    prefix: r.prefixTokens,
    scale: r.scale,
    steps: r.steps.length,
    rules: r.rules,
    reconciliation: r,
  }
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`)

/** The table as Markdown (the test prints it; the bench writes it to RESULTS.md). */
export function accuracyTable(rows: readonly AccuracyRow[]): string {
  const lines = [
    '| file | calls | reported | dropped | median \\|err\\| | p90 \\|err\\| | predicted (2nd half) | prefix | scale | steps |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
  ]
  for (const r of rows)
    lines.push(
      `| ${r.file} | ${r.calls} | ${r.reported} | ${r.dropped} | ${pct(r.median)} | ${pct(r.p90)} | ${pct(r.predicted)} | ${r.prefix} | ${r.scale.toFixed(3)} | ${r.steps} |`,
    )
  return lines.join('\n')
}

/** The cache model against a transcript's reported cache reads (no compaction). */
export interface CacheRow {
  readonly file: string
  readonly calls: number
  readonly median: number | null
  readonly p90: number | null
  readonly caching: string
}

/** Files with at least this many calls reporting a cache read are judged; smaller ones listed. */
export const MIN_CACHE_CALLS = 20

export async function cacheAccuracyOf(
  path: string,
  counter: TextCounter,
): Promise<CacheRow | null> {
  const outcome = importTranscript(readFileSync(path, 'utf8'), { fileName: path })
  if (!outcome.result.ok) return null
  const conversation = outcome.result.conversation
  const prepared = prepare(conversation, counter)
  const none: EngineConfig = {
    window: { contextTokens: 10_000_000, reservedOutput: 0, buffer: 0 },
    protections: DEFAULT_PROTECTIONS,
    pipeline: [],
    fallback: { enabled: false, strict: false },
  }
  const points = await replay(prepared, none, { counter }, STRATEGY_REGISTRY)
  const check = sessionCost(points).cacheCheck
  if (check.calls === 0) return null
  return {
    file: path.slice(CORPUS.length + 1),
    calls: check.calls,
    median: check.medianAbsError,
    p90: check.p90AbsError,
    caching: cachingOf(conversation).why,
  }
}

export function cacheTable(rows: readonly CacheRow[]): string {
  const lines = [
    '| file | calls with a reported cache read | median \\|modelled − reported\\| / context | p90 | caching |',
    '| --- | --: | --: | --: | --- |',
  ]
  for (const r of rows)
    lines.push(`| ${r.file} | ${r.calls} | ${pct(r.median)} | ${pct(r.p90)} | ${r.caching} |`)
  return lines.join('\n')
}
