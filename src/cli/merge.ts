import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fleetCsv } from '../fleet/csv.ts'
import { isFleetPartial, mergePartials } from '../fleet/report.ts'
import type { FleetPartial } from '../fleet/types.ts'
import { flagString, parseArgs, UsageError } from './args.ts'
import type { Io } from './io.ts'
import { writeOutputsAtomically, type Output } from './write.ts'

export const MERGE_USAGE =
  'usage: compaction-lab merge PARTIAL.json… [--out REPORT.json] [--csv ROWS.csv]'

/**
 * `compaction-lab merge`: the partial reports of `evaluate --shard i/n` → the report one run over
 * every file writes. Exit 1 when a partial is unreadable, of another config, duplicated or missing.
 */
export async function mergeCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { out: 'value', csv: 'value' })
  if (args.positional.length === 0) throw new UsageError(MERGE_USAGE)
  const outPath = flagString(args, 'out')
  const csvPath = flagString(args, 'csv')
  if (outPath && csvPath && resolve(outPath) === resolve(csvPath))
    throw new UsageError(`--out and --csv name the same file ${outPath}; give each its own path`)
  const partials: FleetPartial[] = []
  for (const path of args.positional) {
    let value: unknown
    try {
      value = JSON.parse(await readFile(path, 'utf8'))
    } catch (error) {
      io.stderr(`${path}: cannot read: ${error instanceof Error ? error.message : String(error)}\n`)
      return 1
    }
    if (!isFleetPartial(value)) {
      io.stderr(`${path}: not a partial report (written by evaluate --shard I/N)\n`)
      return 1
    }
    partials.push(value)
  }
  const merged = mergePartials(partials)
  if (!merged.ok) {
    io.stderr(`cannot merge: ${merged.message}\n`)
    return 1
  }
  const json = JSON.stringify(merged.report, null, 2) + '\n'
  const outputs: Output[] = []
  if (outPath) outputs.push({ flag: '--out', path: outPath, content: json })
  if (csvPath) outputs.push({ flag: '--csv', path: csvPath, content: fleetCsv(merged.report.rows) })
  const written = await writeOutputsAtomically(outputs)
  if (!written.ok) {
    io.stderr(`${written.message}; nothing was written\n`)
    return 1
  }
  if (!outPath) io.stdout(json)
  const a = merged.report.aggregates
  io.stderr(
    `merged ${partials.length} partials: ${a.conversations} conversations in ${merged.report.files} files, ` +
      `${a.tokensBefore} → ${a.tokensAfter} tokens, ${merged.report.failures.length} failed\n`,
  )
  return 0
}
