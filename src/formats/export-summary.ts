import type { Message } from '../engine/model.ts'
import { isObject, num } from './util.ts'

/**
 * How the compacted-transcript export (`src/export/transcript.ts`) asks a serializer to write an
 * inserted summary in the source system's own shape. It travels in `Message.source` under this
 * key, so `Importer.serialize` keeps its one-argument signature; imported conversations never
 * carry it, so plain round trips are unaffected.
 */
export const EXPORT_SUMMARY_KEY = 'exportSummary'

export interface ExportSummaryHint {
  /**
   * Nothing but system/injected context precedes the summary: it replaces the start of the
   * history, which is what a source system's own compaction record (Claude Code
   * `compact_boundary`, Codex `compacted`, Anthropic `compaction` block) means. A summary in the
   * middle (e.g. a collapsed tool-call group) is written as an ordinary message instead, because
   * those records make the source system drop everything before them.
   */
  readonly leading: boolean
  /** Context tokens before compaction (Claude Code `compactMetadata.preTokens`). */
  readonly preTokens?: number
}

/** The export hint on a message, if the export marked it as an inserted summary. */
export function exportSummaryHint(m: Message): ExportSummaryHint | undefined {
  const hint = m.source?.[EXPORT_SUMMARY_KEY]
  if (!isObject(hint) || typeof hint.leading !== 'boolean') return undefined
  const preTokens = num(hint.preTokens)
  return { leading: hint.leading, ...(preTokens !== undefined ? { preTokens } : {}) }
}

/** The plain text of a summary message (its text parts joined). */
export function summaryText(m: Message): string {
  return m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
}
