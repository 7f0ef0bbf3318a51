/**
 * What the Export dialog offers, in the order it lists them: our own config, the seven target
 * systems (SPEC §7, same order as the CLI's `--target`), then the files of the latest run.
 */
import type { ConfigExportTarget } from '../../../store/index.ts'

export type ExportChoice =
  | { readonly kind: 'config'; readonly id: ConfigExportTarget; readonly label: string }
  | { readonly kind: 'transcript'; readonly id: 'transcript'; readonly label: string }
  | { readonly kind: 'report'; readonly id: 'report-json' | 'report-csv'; readonly label: string }

export type ExportChoiceId = ExportChoice['id']

export const CONFIG_CHOICES: readonly ExportChoice[] = [
  { kind: 'config', id: 'compaction-lab', label: 'Compaction Lab config (versioned JSON)' },
  { kind: 'config', id: 'lip', label: 'llm-interactive-proxy — config.yaml' },
  { kind: 'config', id: 'opencode', label: 'opencode — opencode.json' },
  { kind: 'config', id: 'anthropic', label: 'Anthropic Messages API — context_management' },
  { kind: 'config', id: 'falai', label: '@falai/agent — compaction options (TS)' },
  { kind: 'config', id: 'maf', label: 'Microsoft Agent Framework — Python' },
  { kind: 'config', id: 'langchain', label: 'LangChain JS — middleware options' },
  { kind: 'config', id: 'adachsoft', label: 'adachsoft PHP agent — strategy params' },
]

export const RUN_CHOICES: readonly ExportChoice[] = [
  { kind: 'transcript', id: 'transcript', label: 'Compacted transcript (source format)' },
  { kind: 'report', id: 'report-json', label: 'Run report (JSON)' },
  { kind: 'report', id: 'report-csv', label: 'Decisions (CSV)' },
]

export const EXPORT_CHOICES: readonly ExportChoice[] = [...CONFIG_CHOICES, ...RUN_CHOICES]

export function choiceById(id: string): ExportChoice | undefined {
  return EXPORT_CHOICES.find((c) => c.id === id)
}
