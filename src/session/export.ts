/**
 * Export and import for the app's Export dialog: the same pure modules the CLI uses (config
 * translations, our versioned JSON, the compacted transcript, reports), wrapped as files the UI
 * can preview, copy and download. No worker globals, so node tests call these directly.
 */
import { parseJson } from '../engine/json.ts'
import {
  buildCompactReport,
  decisionsCsv,
  DEFAULT_CSV_COLUMNS,
  reportJson,
  type CsvColumn,
} from '../export/reports.ts'
import { exportTarget } from '../export/targets/index.ts'
import type { TargetOutput } from '../export/targets/types.ts'
import { exportCompactedTranscript } from '../export/transcript.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { loadConfigText, serializeConfig } from '../config/load.ts'
import type { ConfigIssue } from '../config/validate.ts'
import type { ConfigExportTarget, ExportFile, ExportLanguage } from './types.ts'
import { resolveConfig, type RunRecord } from './run.ts'

export type ExportOutcome =
  | { readonly kind: 'exported'; readonly file: ExportFile }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }

/** Media types for the downloads; browsers only use them to pick a default handler. */
const MEDIA_TYPES: Record<TargetOutput['language'], string> = {
  yaml: 'application/yaml',
  json: 'application/json',
  // opencode.json with a leading comment: still the file opencode loads.
  jsonc: 'application/json',
  text: 'text/plain',
  typescript: 'text/plain',
  python: 'text/x-python',
  php: 'text/plain',
}

/** Our config (`compaction-lab`) or a target system's, from a config object or a preset id. */
export function exportConfigFile(
  config: unknown,
  preset: string | undefined,
  target: ConfigExportTarget,
): ExportOutcome {
  const resolved = resolveConfig(config, preset)
  if (!resolved.ok) return { kind: 'invalid', issues: resolved.issues }
  if (target === 'compaction-lab') {
    return {
      kind: 'exported',
      file: {
        fileName: `${fileStem(resolved.config.name, 'compaction-lab')}.compaction-lab.json`,
        language: 'json',
        mediaType: MEDIA_TYPES.json,
        text: serializeConfig(resolved.config),
        warnings: [],
        notes: [
          'Load it again with "Import config", or run it with `compaction-lab compact --config FILE`.',
        ],
      },
    }
  }
  const out = exportTarget(target, resolved.config)
  return {
    kind: 'exported',
    file: {
      fileName: out.fileName,
      language: out.language,
      mediaType: MEDIA_TYPES[out.language],
      text: out.text,
      summary: out.summary,
      warnings: out.warnings,
      notes: out.notes,
    },
  }
}

/** `coding-session.jsonl` → `coding-session`; a name without usable characters → `fallback`. */
export function fileStem(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? ''
  const stem = base.replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[^A-Za-z0-9._-]+/g, '-')
  const trimmed = stem.replace(/^[-.]+|[-.]+$/g, '')
  return trimmed === '' ? fallback : trimmed
}

function languageOf(extension: string): ExportLanguage {
  if (extension === '.jsonl') return 'jsonl'
  if (extension === '.md') return 'markdown'
  return 'json'
}

/** The run's projection written in the source format, as `compaction-lab compact` writes it. */
export function exportTranscriptFile(
  record: RunRecord,
  sourceFile: string | undefined,
): ExportFile {
  const out = exportCompactedTranscript(record.result)
  return {
    fileName: `${fileStem(sourceFile, 'transcript')}.compacted${out.extension}`,
    language: languageOf(out.extension),
    mediaType: out.mediaType,
    text: out.text,
    warnings: [],
    notes: out.notes,
  }
}

/** The CLI's JSON report of the run, or its decisions as CSV (chosen or default columns). */
export function exportReportFile(
  record: RunRecord,
  format: 'json' | 'csv',
  context: { readonly sourceFile?: string; readonly preset?: string },
  columns: readonly CsvColumn[] = DEFAULT_CSV_COLUMNS,
): ExportFile {
  const report = buildCompactReport(record.result, {
    file: context.sourceFile ?? 'pasted transcript',
    config: { name: record.config.name, ...(context.preset ? { preset: context.preset } : {}) },
    risk: record.risk,
  })
  const stem = fileStem(context.sourceFile, 'transcript')
  const notes = [
    'Without the per-call replay: `compaction-lab compact --replay --report FILE` adds it.',
  ]
  if (format === 'json') {
    return {
      fileName: `${stem}.report.json`,
      language: 'json',
      mediaType: 'application/json',
      text: reportJson(report),
      warnings: [],
      notes,
    }
  }
  return {
    fileName: `${stem}.decisions.csv`,
    language: 'csv',
    mediaType: 'text/csv',
    text: decisionsCsv(report, columns),
    warnings: [],
    notes: [
      `${report.decisions.length} decisions, one row each, CRLF line ends (RFC 4180); columns ${columns.join(', ')}.`,
    ],
  }
}

export type ImportOutcome =
  | { readonly kind: 'imported'; readonly config: unknown }
  | { readonly kind: 'invalid'; readonly issues: readonly ConfigIssue[] }

/**
 * A config file's text → our current versioned JSON (migrated, validated, defaults filled). The
 * validated object goes through its serialization so the UI gets plain JSON data with `$schema`
 * and `version` first, exactly what exporting it again would write.
 */
export function importConfigText(text: string): ImportOutcome {
  const loaded = loadConfigText(text, STRATEGY_REGISTRY)
  if (!loaded.ok) return { kind: 'invalid', issues: loaded.issues }
  return { kind: 'imported', config: parseJson(serializeConfig(loaded.config)) }
}
