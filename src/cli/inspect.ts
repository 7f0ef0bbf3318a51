import { readFile } from 'node:fs/promises'
import type { ReconciliationSummary } from '../engine/accounting/index.ts'
import type { InspectReport } from '../engine/inspect-types.ts'
import { FORMAT_IDS, isFormatId } from '../formats/index.ts'
import type { FileItem, ItemsKind } from '../formats/items.ts'
import type { Detection, ParseWarning } from '../formats/types.ts'
import { importInput, inspectFile } from '../session/batch.ts'
import { flagString, itemFlag, parseArgs, UsageError } from './args.ts'
import { strictUtf8, type Io } from './io.ts'

const TOKENIZERS = ['o200k_base', 'cl100k_base', 'estimate'] as const
type TokenizerFlag = (typeof TOKENIZERS)[number]

export const INSPECT_USAGE =
  'usage: compaction-lab inspect FILE [--format ID] [--item N] [--tokenizer o200k_base|cl100k_base|estimate] [--json]'

export interface InspectJson extends InspectReport {
  readonly file: string
  /**
   * How each call's context was reconstructed and reconciled with the transcript's reported
   * usage (errors are fractions of the reported figure).
   */
  readonly reconciliation: ReconciliationSummary
  readonly detection: { readonly confidence: number; readonly evidence: readonly string[] } | null
  readonly warnings: readonly ParseWarning[]
  /** The file's conversations when it holds several (tau-bench, aider sessions, sub-agents…). */
  readonly items: readonly FileItem[]
  readonly itemsKind: ItemsKind | null
  /** Which item this report is about (0-based); null for the file as a whole. */
  readonly item: number | null
}

/** `compaction-lab inspect`: exit 0 ok, 1 invalid input (line/offset on stderr), 2 usage. */
export async function inspectCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    format: 'value',
    tokenizer: 'value',
    json: 'switch',
    item: 'value',
  })
  const item = itemFlag(args)
  const [file, ...extra] = args.positional
  if (!file || extra.length > 0) throw new UsageError(INSPECT_USAGE)
  const format = flagString(args, 'format')
  if (format !== undefined && !isFormatId(format)) {
    throw new UsageError(`unknown --format ${format}; one of: ${FORMAT_IDS.join(', ')}`)
  }
  const tokenizer = (flagString(args, 'tokenizer') ?? 'o200k_base') as TokenizerFlag
  if (!TOKENIZERS.includes(tokenizer)) {
    throw new UsageError(`unknown --tokenizer ${tokenizer}; one of: ${TOKENIZERS.join(', ')}`)
  }

  let bytes: Uint8Array
  try {
    bytes = await readFile(file)
  } catch (error) {
    io.stderr(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  const outcome = importInput(
    {
      bytes,
      fileName: file,
      listItems: true,
      ...(format ? { format } : {}),
      ...(item !== undefined ? { item } : {}),
    },
    strictUtf8,
  )
  if (!outcome.result.ok) {
    const e = outcome.result.error
    io.stderr(`${file}:${e.line}: offset ${e.offset}: ${e.message}\n`)
    return 1
  }
  const { report, reconciliation } = await inspectFile(outcome.result.conversation, tokenizer)
  const json: InspectJson = {
    file,
    ...report,
    reconciliation,
    detection: detectionSummary(outcome.detection),
    warnings: [...(outcome.items?.warnings ?? []), ...outcome.result.warnings],
    items: outcome.items?.items ?? [],
    itemsKind: outcome.items?.kind ?? null,
    item: outcome.item ?? null,
  }
  io.stdout(args.flags.has('json') ? JSON.stringify(json, null, 2) + '\n' : humanReport(json))
  return 0
}

function detectionSummary(d: Detection | null): InspectJson['detection'] {
  return d ? { confidence: d.confidence, evidence: d.evidence } : null
}

const fmt = (n: number) => n.toLocaleString('en-US')

function humanReport(r: InspectJson): string {
  const lines: string[] = []
  const conf = r.detection ? ` (confidence ${Math.round(r.detection.confidence * 100)}%)` : ''
  lines.push(`${r.file}`, `  format        ${r.format}${conf}`)
  if (r.meta.title) lines.push(`  title         ${r.meta.title}`)
  if (r.meta.model) lines.push(`  model         ${r.meta.model}`)
  lines.push(
    `  messages      ${fmt(r.messages)} in ${fmt(r.turns)} turns`,
    `  groups        ${fmt(r.groups.total)} (system ${r.groups.system}, user ${r.groups.user}, assistant_text ${r.groups.assistant_text}, tool_call ${r.groups.tool_call})`,
    `  tool calls    ${fmt(r.toolCalls)}  results ${fmt(r.toolResults)}  orphans ${r.orphans}  pending ${r.pending}  paired by position ${r.pairedByPosition}`,
    `  upstream compactions ${r.markers}`,
    `  tokens        ${fmt(r.tokens.total)} (${r.tokens.tokenizer}${r.tokens.exact ? ', exact' : ', estimate'})`,
  )
  for (const [cat, n] of Object.entries(r.tokens.byCategory)) {
    if (n > 0) lines.push(`    ${cat.padEnd(13)} ${fmt(n).padStart(12)}`)
  }
  for (const a of r.tokens.approximate)
    lines.push(`    ≈ ${fmt(a.tokens)} priced by rule: ${a.what}`)
  const rec = r.reconciliation
  const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`)
  lines.push(`  per call      ${rec.source}: ${rec.summary}`)
  if (rec.source === 'reconciled')
    lines.push(
      `                error vs reported: median ${pct(rec.medianAbsError)}, p90 ${pct(rec.p90AbsError)}; ${rec.dropped} calls ignored; ${rec.flagged.length} flagged over 10%`,
    )
  for (const s of rec.steps.slice(0, 10))
    lines.push(
      `                hidden prefix → ${fmt(s.prefixTokens)} from message ${s.fromIndex} (${s.thread})`,
    )
  const last = rec.lastCall
  if (last?.reported !== undefined) {
    const diff = last.estimate - last.reported
    lines.push(
      `  last call     ${fmt(last.estimate)} reconstructed vs ${fmt(last.reported)} reported (${rec.reportedBy}; ${diff >= 0 ? '+' : ''}${fmt(diff)})`,
    )
  }
  if (r.items.length > 0) {
    lines.push(
      `  items         ${r.items.length} conversations in the file (${r.itemsKind}); ${r.item === null ? 'this report is the default one' : `this is item ${r.item}`}; pick one with --item N`,
    )
    for (const it of r.items.slice(0, 30))
      lines.push(
        `    ${String(it.index).padStart(4)}  ${it.name}  (${fmt(it.messages)} messages${it.tokens !== undefined ? `, ≈${fmt(it.tokens)} tokens` : ''})`,
      )
    if (r.items.length > 30) lines.push(`    … ${r.items.length - 30} more (use --json)`)
  }
  for (const note of r.meta.notes) lines.push(`  note          ${note}`)
  if (r.warnings.length > 0) {
    lines.push(`  warnings      ${r.warnings.length}`)
    for (const w of r.warnings.slice(0, 20))
      lines.push(`    line ${w.line}, offset ${w.offset}: ${w.message}`)
    if (r.warnings.length > 20) lines.push(`    … ${r.warnings.length - 20} more (use --json)`)
  }
  return lines.join('\n') + '\n'
}
