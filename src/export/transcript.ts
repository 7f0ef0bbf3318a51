import type { CompactionResult } from '../engine/compaction/run.ts'
import type { Conversation, FormatId, Message, Part, Role } from '../engine/model.ts'
import { withoutEventEchoes } from '../formats/codex/serialize.ts'
import { EXPORT_SUMMARY_KEY, type ExportSummaryHint } from '../formats/export-summary.ts'
import { RECORD_KEY, recordOf } from '../formats/compaction-record.ts'
import { importerFor } from '../formats/index.ts'
import { pushAll } from '../engine/arrays.ts'

/**
 * The compacted conversation written back in its source format (SPEC §7). Pure TS, no Node or
 * DOM APIs: the CLI and the Web Worker both call it.
 *
 * What the model would receive is the engine's `projection`; the serializers write it, so a stub
 * stays a stub (the stub text replaces the tool result content, call/result ids kept) and an
 * excluded group is absent. Inserted summaries are placed as the source system places its own
 * compaction output (see `SUMMARY_PLACEMENT`), which sometimes needs a different role than the
 * strategy chose (Anthropic and Gemini have no system messages inside the conversation…): the
 * export returns the conversation it actually wrote, and re-importing `text` gives it back.
 */
export interface TranscriptExport {
  readonly format: FormatId
  /** The file contents. */
  readonly text: string
  /** The projection as written: summaries re-roled/re-shaped for the format. */
  readonly conversation: Conversation
  /** Suggested file name extension (with the dot) and media type. */
  readonly extension: string
  readonly mediaType: string
  /** What the export changed or could not express, one sentence each. */
  readonly notes: readonly string[]
}

export interface TranscriptExportOptions {
  /** Must be the projection's own source format (the default); there is no conversion. */
  readonly format?: FormatId
  /** Context tokens before compaction, written where the format records it (Claude Code). */
  readonly tokensBefore?: number
}

type Placement = (
  role: Role,
  leading: boolean,
) => { role: Role; where: string; part?: Part['meta'] }

const keep: Placement = (role) => ({ role, where: `a ${role} message at the covered position` })
const noSystem =
  (what: string): Placement =>
  (role) =>
    role === 'system'
      ? { role: 'user', where: `a user message at the covered position (${what})` }
      : keep(role, false)

/**
 * Where each source system puts a compaction summary (formats.md §4–§13), and the role it gets.
 * "Leading" summaries (only system/injected context before them) replace the start of the history
 * and get the source system's own compaction record where it has one we can write.
 */
export const SUMMARY_PLACEMENT: Record<FormatId, Placement> = {
  'claude-code': (_role, leading) => ({
    role: 'user',
    where: leading
      ? 'a compact_boundary system line followed by the isCompactSummary user line (as Claude Code writes a compaction)'
      : 'an isMeta user line at the covered position (Claude Code sends it to the model without showing it)',
  }),
  codex: (_role, leading) => ({
    role: 'user',
    where: leading
      ? 'a `compacted` line (message = the summary, replacement_history = the items kept before it) followed by the summary as a user message item, which is how Codex rebuilds history after compacting'
      : 'a user message item at the covered position (Codex gives the model its summaries as user messages)',
  }),
  opencode: () => ({
    role: 'assistant',
    where: 'an assistant message with `summary: true` (what opencode compaction writes)',
  }),
  'anthropic-messages': (role, leading) =>
    leading
      ? {
          role: 'assistant',
          where:
            'an assistant message holding a `compaction` block (Anthropic server-side compaction)',
          part: { blockType: 'compaction' },
        }
      : noSystem('Anthropic messages have no system role')(role, leading),
  'openai-responses': (role) =>
    role === 'assistant'
      ? {
          role: 'user',
          where:
            'a user message at the covered position (compaction items are encrypted by OpenAI; an assistant message would merge with the next model output)',
        }
      : keep(role, false),
  gemini: noSystem('Gemini `contents` have no system role'),
  'gemini-cli': noSystem(
    'Gemini CLI records no system messages; /compress sends summaries as user turns',
  ),
  aider: () => ({
    role: 'user',
    where:
      'a user message at the covered position (aider sends its chat summary as a user message; assistant replies next to each other would merge in the Markdown)',
  }),
  'openai-chat': keep,
  langchain: keep,
  'ai-sdk': keep,
  'swe-agent': keep,
  openhands: keep,
}

const FILE_TYPES: Record<FormatId, { extension: string; mediaType: string }> = {
  'claude-code': { extension: '.jsonl', mediaType: 'application/x-ndjson' },
  codex: { extension: '.jsonl', mediaType: 'application/x-ndjson' },
  aider: { extension: '.md', mediaType: 'text/markdown' },
  'swe-agent': { extension: '.traj', mediaType: 'application/json' },
  'openai-chat': { extension: '.json', mediaType: 'application/json' },
  'openai-responses': { extension: '.json', mediaType: 'application/json' },
  'anthropic-messages': { extension: '.json', mediaType: 'application/json' },
  gemini: { extension: '.json', mediaType: 'application/json' },
  'gemini-cli': { extension: '.json', mediaType: 'application/json' },
  opencode: { extension: '.json', mediaType: 'application/json' },
  openhands: { extension: '.json', mediaType: 'application/json' },
  langchain: { extension: '.json', mediaType: 'application/json' },
  'ai-sdk': { extension: '.json', mediaType: 'application/json' },
}

/** Only system prompts and injected context before it: the summary starts the history. */
function isLeading(messages: readonly Message[], index: number): boolean {
  for (let i = 0; i < index; i++) {
    const m = messages[i] as Message
    if (m.role !== 'system' && !m.injected) return false
  }
  return true
}

/**
 * The projection as the target format will hold it: each inserted summary re-roled and marked
 * for its serializer (`EXPORT_SUMMARY_KEY`); nothing else changes.
 */
export function placeSummaries(
  projection: Conversation,
  format: FormatId,
  tokensBefore?: number,
): { conversation: Conversation; notes: string[] } {
  const notes: string[] = []
  const place = SUMMARY_PLACEMENT[format]
  const messages = projection.messages.map((m, index) => {
    if (!m.summaryOf) return m
    const leading = isLeading(projection.messages, index)
    const placed = place(m.role, leading)
    const hint: ExportSummaryHint = {
      leading,
      ...(tokensBefore !== undefined ? { preTokens: tokensBefore } : {}),
    }
    notes.push(
      `summary ${m.id} (${m.summaryOf.strategy}, covers ${m.summaryOf.groups.length} group(s)): ` +
        `written as ${placed.where}` +
        (placed.role !== m.role ? `; role ${m.role} → ${placed.role}` : ''),
    )
    const partMeta = placed.part
    return {
      ...m,
      role: placed.role,
      parts: partMeta
        ? m.parts.map((p) => (p.kind === 'text' ? { ...p, meta: { ...p.meta, ...partMeta } } : p))
        : m.parts,
      source: { ...m.source, [EXPORT_SUMMARY_KEY]: hint },
    }
  })
  return { conversation: { ...projection, messages }, notes }
}

/**
 * Write a compaction result (or a projection) as a transcript file in its source format. Never
 * mutates its input. Writing another format is not offered: serializers rely on the source's
 * envelope and part metadata, which a conversion would have to translate part by part.
 */
export function exportCompactedTranscript(
  input: CompactionResult | Conversation,
  options: TranscriptExportOptions = {},
): TranscriptExport {
  const projection = 'projection' in input ? input.projection : input
  const tokensBefore =
    options.tokensBefore ?? ('projection' in input ? input.tokensBefore : undefined)
  const source = projection.meta.format
  const format = options.format ?? source
  if (format !== source)
    throw new RangeError(
      `cannot export a ${source} transcript as ${format}: only its source format`,
    )
  const notes: string[] = []
  let base = projection
  if (format === 'codex') {
    const echo = withoutEventEchoes(base)
    base = echo.conversation
    if (echo.dropped > 0)
      notes.push(
        `${echo.dropped} event_msg line(s) that repeat message content for Codex's UI were left out, so excluded and stubbed content does not travel along`,
      )
  }
  const placed = placeSummaries(base, format, tokensBefore)
  pushAll(notes, placed.notes)
  const text = importerFor(format).serialize(placed.conversation)
  if (recordOf(placed.conversation))
    notes.push(
      `the file ends with a \`${RECORD_KEY}\` record (Compaction Lab's own compaction marker: which messages are summaries and which parts are stubs, which ${format} cannot say itself), so it re-imports as already compacted and compacting it again changes nothing; drop it before replaying the file to ${format === 'aider' ? 'aider' : 'the API'}`,
    )
  return {
    format,
    text,
    conversation: placed.conversation,
    ...FILE_TYPES[format],
    notes,
  }
}
