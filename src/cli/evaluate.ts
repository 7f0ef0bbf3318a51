import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { fleetConfigRef } from '../fleet/evaluate.ts'
import { fleetCsv } from '../fleet/csv.ts'
import { buildFleetPartial, buildFleetReport } from '../fleet/report.ts'
import { parseShard, shard } from '../fleet/shard.ts'
import type { FleetFailure, FleetOutcome, FleetReport, FleetRow } from '../fleet/types.ts'
import { flagString, parseArgs, UsageError } from './args.ts'
import { fleetConfigFrom } from './fleet-config.ts'
import { listFiles } from './fleet-files.ts'
import { evaluatePaths } from './fleet-pool.ts'
import { timingsLine, writeTimings } from './fleet-timings.ts'
import type { Io } from './io.ts'
import { writeOutputsAtomically, type Output } from './write.ts'

export const EVALUATE_USAGE =
  'usage: compaction-lab evaluate PATH… (--config CONFIG.json | --preset ID) [--jobs N] [--out REPORT.json]\n' +
  '       [--csv ROWS.csv] [--shard I/N]'

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`)
const usd = (x: number | null) => (x === null ? '–' : `$${x.toFixed(2)}`)

function progressLine(
  done: number,
  total: number,
  path: string,
  outcomes: readonly FleetOutcome[],
) {
  const parts = outcomes.map((o) =>
    o.kind === 'row'
      ? `${o.row.tokens.last.before} → ${o.row.tokens.last.after} tokens`
      : `FAILED ${o.failure.message}`,
  )
  return `[${done}/${total}] ${path}: ${parts.join('; ') || 'no conversation'}\n`
}

/** The closing lines on stderr: the fleet's figures, then every failure and why. */
function summary(report: Pick<FleetReport, 'aggregates' | 'failures' | 'files'>): string {
  const a = report.aggregates
  const lines = [
    `${a.conversations} conversations in ${report.files} files: ${a.tokensBefore} → ${a.tokensAfter} tokens ` +
      `(saved ${pct(a.savedFraction.total)}; per conversation median ${pct(a.savedFraction.median)}, p90 ${pct(a.savedFraction.p90)})`,
    `cost ${usd(a.costBefore.count > 0 ? a.costBefore.total : null)} → ${usd(a.costAfter.count > 0 ? a.costAfter.total : null)} ` +
      `(${a.costBefore.count} priced); invariants violated in ${a.invariantsViolated}; removed then used ${a.usedLater}`,
  ]
  if (report.failures.length > 0) {
    lines.push(`${report.failures.length} failed:`)
    for (const f of report.failures) lines.push(`  ${f.name}: ${f.message}`)
  }
  return lines.join('\n') + '\n'
}

/**
 * `compaction-lab evaluate`: one config over many transcripts. Exit 0 when every file was
 * evaluated, 1 when any failed (listed after the rest finished) or the config is invalid, 2 usage.
 */
export async function evaluateCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    config: 'value',
    preset: 'value',
    jobs: 'value',
    out: 'value',
    csv: 'value',
    shard: 'value',
  })
  if (args.positional.length === 0) throw new UsageError(EVALUATE_USAGE)
  const jobsText = flagString(args, 'jobs')
  const jobs = jobsText === undefined ? Math.max(1, availableParallelism()) : Number(jobsText)
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new UsageError(`--jobs ${jobsText}: expected a whole number ≥ 1`)
  const shardText = flagString(args, 'shard')
  const slice = shardText === undefined ? null : parseShard(shardText)
  if (shardText !== undefined && !slice)
    throw new UsageError(`--shard ${shardText}: expected I/N with 1 ≤ I ≤ N, e.g. 2/8`)
  const outPath = flagString(args, 'out')
  const csvPath = flagString(args, 'csv')
  if (outPath && csvPath && resolve(outPath) === resolve(csvPath))
    throw new UsageError(`--out and --csv name the same file ${outPath}; give each its own path`)
  const fleet = await fleetConfigFrom(args, EVALUATE_USAGE)
  if ('message' in fleet) {
    io.stderr(`${fleet.message}\n`)
    return 1
  }

  const listed = await listFiles(args.positional)
  const files = slice ? shard(listed.files, slice.index, slice.count) : [...listed.files]
  const started = performance.now()
  let done = 0
  const { results, stats } = await evaluatePaths(
    files,
    fleet,
    jobs,
    (path, outcomes) => io.stderr(progressLine(++done, files.length, path, outcomes)),
    { sizes: listed.sizes },
  )
  const poolEnded = performance.now()
  const rows: FleetRow[] = []
  const failures: FleetFailure[] = [...listed.unreadable]
  for (const outcomes of results.values())
    for (const o of outcomes) {
      if (o.kind === 'row') rows.push(o.row)
      else failures.push(o.failure)
    }
  const ref = fleetConfigRef(fleet)
  const fileCount = files.length + listed.unreadable.length
  const report = buildFleetReport(ref, fileCount, rows, failures)
  const json = slice
    ? JSON.stringify(buildFleetPartial(ref, slice, fileCount, rows, failures), null, 2) + '\n'
    : JSON.stringify(report, null, 2) + '\n'

  const outputs: Output[] = []
  if (outPath) outputs.push({ flag: '--out', path: outPath, content: json })
  if (csvPath) outputs.push({ flag: '--csv', path: csvPath, content: fleetCsv(report.rows) })
  const written = await writeOutputsAtomically(outputs)
  if (!written.ok) {
    io.stderr(`${written.message}; nothing was written\n`)
    return 1
  }
  if (!outPath) io.stdout(json)
  const ended = performance.now()
  const seconds = ((ended - started) / 1000).toFixed(1)
  const cpu = process.cpuUsage()
  const timings = {
    beforeMs: started,
    pool: stats,
    afterMs: ended - poolEnded,
    processCpuMs: (cpu.user + cpu.system) / 1000,
  }
  await writeTimings(timings)
  io.stderr(
    `${slice ? `shard ${slice.index}/${slice.count}: ` : ''}${fleet.config.name}, ${jobs} job${jobs > 1 ? 's' : ''}, ${seconds} s\n` +
      timingsLine(timings) +
      summary(report),
  )
  return report.failures.length > 0 ? 1 : 0
}
