import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { PRESET_IDS, type PresetId } from '../config/presets.ts'
import type { ConfigIssue } from '../config/validate.ts'
import type { CompactionConfig } from '../config/schema.ts'
import { CSV_COLUMNS, decisionsCsv, isCsvColumn, reportJson } from '../export/reports.ts'
import { FORMAT_IDS, isFormatId, type ImportOutcome } from '../formats/index.ts'
import {
  compactFile,
  importInput,
  resolveConfig,
  summarizerFor,
  type LoadInput,
  type Summarizer,
} from '../session/batch.ts'
import { flagString, itemFlag, parseArgs, UsageError } from './args.ts'
import { boundHeapGrowth } from './v8-flags.ts'
import { strictUtf8, type Io } from './io.ts'
import { writeOutputsAtomically, type Output } from './write.ts'

export const COMPACT_USAGE =
  'usage: compaction-lab compact FILE (--config CONFIG.json | --preset ID) [--format ID] [--item N] [--out FILE] [--report FILE.json]\n' +
  '       [--report-csv FILE.csv [--csv-columns COL,…]] [--replay]\n' +
  '       [--summarizer digest|openai-chat|anthropic --summarizer-url URL --summarizer-model MODEL]  (key: $COMPACTION_LAB_SUMMARIZER_KEY)'

export type { CompactReport, ReportDecision } from '../export/reports.ts'

/**
 * The offline digest unless the user names an endpoint: the CLI makes no network request
 * otherwise. The key comes from the environment so it never lands in shell history.
 */
function summarizerFrom(args: ReturnType<typeof parseArgs>): Summarizer {
  const kind = flagString(args, 'summarizer') ?? 'digest'
  if (kind === 'digest') return summarizerFor(null, globalThis.fetch)
  if (kind !== 'openai-chat' && kind !== 'anthropic') {
    throw new UsageError(`unknown --summarizer ${kind}; one of: digest, openai-chat, anthropic`)
  }
  const baseUrl = flagString(args, 'summarizer-url')
  const model = flagString(args, 'summarizer-model')
  if (!baseUrl || !model)
    throw new UsageError(`--summarizer ${kind} needs --summarizer-url and --summarizer-model`)
  const apiKey = process.env.COMPACTION_LAB_SUMMARIZER_KEY
  return summarizerFor({ kind, baseUrl, model, ...(apiKey ? { apiKey } : {}) }, globalThis.fetch)
}

function configIssues(issues: readonly ConfigIssue[]): string {
  return issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')
}

/**
 * Read and parse `file` in a scope of its own: the file's bytes (as large as the input, outside
 * the JS heap) become garbage as soon as this returns, instead of staying referenced by the
 * command for the whole compaction and replay (issue 14: 200 MB of the 200 MB run's peak RSS).
 */
async function readAndImport(
  file: string,
  options: Pick<LoadInput, 'format' | 'item'>,
): Promise<ImportOutcome | { readonly unreadable: string }> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(file)
  } catch (error) {
    return { unreadable: error instanceof Error ? error.message : String(error) }
  }
  return importInput({ bytes, fileName: file, ...options }, strictUtf8)
}

/** `compaction-lab compact`: exit 0 ok, 1 invalid input or config, 2 usage. */
export async function compactCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    config: 'value',
    preset: 'value',
    format: 'value',
    out: 'value',
    report: 'value',
    'report-csv': 'value',
    'csv-columns': 'value',
    replay: 'switch',
    summarizer: 'value',
    'summarizer-url': 'value',
    'summarizer-model': 'value',
    item: 'value',
  })
  const item = itemFlag(args)
  const [file, ...extra] = args.positional
  if (!file || extra.length > 0) throw new UsageError(COMPACT_USAGE)
  const configPath = flagString(args, 'config')
  const presetId = flagString(args, 'preset')
  if (!configPath === !presetId)
    throw new UsageError(`give exactly one of --config or --preset\n${COMPACT_USAGE}`)
  if (presetId !== undefined && !(PRESET_IDS as readonly string[]).includes(presetId)) {
    throw new UsageError(`unknown --preset ${presetId}; one of: ${PRESET_IDS.join(', ')}`)
  }
  const format = flagString(args, 'format')
  if (format !== undefined && !isFormatId(format)) {
    throw new UsageError(`unknown --format ${format}; one of: ${FORMAT_IDS.join(', ')}`)
  }
  const csvColumns = flagString(args, 'csv-columns')
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean)
  const badColumns = (csvColumns ?? []).filter((c) => !isCsvColumn(c))
  if (badColumns.length > 0 || (csvColumns && csvColumns.length === 0)) {
    throw new UsageError(
      `unknown --csv-columns ${badColumns.join(', ') || '(none given)'}; from: ${CSV_COLUMNS.join(', ')}`,
    )
  }

  const outPath = flagString(args, 'out')
  const reportPath = flagString(args, 'report')
  const csvPath = flagString(args, 'report-csv')
  const named = [
    ['--out', outPath],
    ['--report', reportPath],
    ['--report-csv', csvPath],
  ].filter((e): e is [string, string] => e[1] !== undefined)
  for (let i = 0; i < named.length; i++)
    for (let j = i + 1; j < named.length; j++)
      if (resolve((named[i] as [string, string])[1]) === resolve((named[j] as [string, string])[1]))
        throw new UsageError(
          `${named[i]?.[0]} and ${named[j]?.[0]} name the same file ${named[i]?.[1]}; give each output its own path`,
        )

  let config: CompactionConfig
  if (configPath) {
    let text: string
    try {
      text = await readFile(configPath, 'utf8')
    } catch (error) {
      io.stderr(
        `${configPath}: cannot read: ${error instanceof Error ? error.message : String(error)}\n`,
      )
      return 1
    }
    const loaded = resolveConfig(text, undefined)
    if (!loaded.ok) {
      io.stderr(`${configPath}: invalid config:\n${configIssues(loaded.issues)}\n`)
      return 1
    }
    config = loaded.config
  } else {
    const resolved = resolveConfig(null, presetId as PresetId)
    if (!resolved.ok) throw new UsageError(configIssues(resolved.issues))
    config = resolved.config
  }

  // From here on the process holds the whole conversation: keep the heap near what is live
  // (peak RSS on the 200 MB transcript, issue 14). Changes when V8 collects, not what is computed.
  boundHeapGrowth()
  const outcome = await readAndImport(file, {
    ...(format && isFormatId(format) ? { format } : {}),
    ...(item !== undefined ? { item } : {}),
  })
  if ('unreadable' in outcome) {
    io.stderr(`${file}: cannot read: ${outcome.unreadable}\n`)
    return 1
  }
  if (!outcome.result.ok) {
    const e = outcome.result.error
    io.stderr(`${file}:${e.line}: offset ${e.offset}: ${e.message}\n`)
    return 1
  }
  const {
    result,
    report,
    transcript: serialized,
    noChange,
  } = await compactFile(outcome.result.conversation, config, {
    file,
    summarizer: summarizerFrom(args),
    ...(presetId ? { preset: presetId } : {}),
    withReplay: args.flags.has('replay'),
  })

  // Every output is computed before anything is written: all of them land, or none does.
  const outputs: Output[] = []
  if (outPath) outputs.push({ flag: '--out', path: outPath, content: serialized })
  if (reportPath) outputs.push({ flag: '--report', path: reportPath, content: reportJson(report) })
  if (csvPath)
    outputs.push({
      flag: '--report-csv',
      path: csvPath,
      content: decisionsCsv(report, csvColumns),
    })
  const written = await writeOutputsAtomically(outputs)
  if (!written.ok) {
    io.stderr(`${written.message}; nothing was written\n`)
    return 1
  }
  if (!outPath) io.stdout(serialized.endsWith('\n') ? serialized : serialized + '\n')
  const changed = result.changes
  io.stderr(
    `${file}${item !== undefined ? ` (item ${item})` : ''}: ${report.format}, ${config.name}: ${report.tokens.before} → ${report.tokens.after} tokens ` +
      `(${changed} changes, invariants ${report.invariants.ok ? 'ok' : 'VIOLATED'}, ` +
      `${report.risk.usedLater} removed then used later)` +
      `${outPath ? `; wrote ${outPath}` : ''}${reportPath ? `; report ${reportPath}` : ''}` +
      `${csvPath ? `; decisions CSV ${csvPath}` : ''}\n`,
  )
  // The same sentence the app shows under its headline (engine/compaction/explain.ts).
  const why = noChange
  if (why) io.stderr(`${file}: ${why}\n`)
  return 0
}
