import { z } from 'zod'
import type { Conversation, FormatId, Message, Part, Role } from '../engine/model.ts'
import type { ParseResult, ParseWarning } from './types.ts'
import { parseJson } from '../engine/json.ts'
import { isObject, warning } from './util.ts'

/**
 * Our own compaction marker (issue 10): what a written compacted transcript must carry so that it
 * re-imports as already compacted, and `compact` on `compact`'s output changes nothing.
 *
 * The engine's projection is a fixed point because it remembers what compaction did: inserted
 * summaries carry `summaryOf` (they form `summary` groups that strategies neither count nor drop),
 * replaced parts carry `meta.compactedBy`, and stubs name the newer copy they defer to in
 * `meta.supersededBy`. A source format has no field for any of that: Claude Code turned our
 * summaries into `isMeta` user lines, and a second run summarised the summaries and cleared the
 * stubs again (318,726 → 134,710 → 55,601 tokens). Native markers are written where the format
 * has them (Claude Code `compact_boundary` + `isCompactSummary`, Codex `compacted`, Anthropic
 * `compaction` blocks, opencode `summary: true`: see `export/transcript.ts`); this record carries
 * the rest, in every format, as the file's last top-level item:
 *
 * - JSON document: a `compaction_lab` key of the top-level object, or a last array element
 *   `{"compaction_lab": …}` when the document is an array;
 * - JSON Lines: a last line `{"compaction_lab": …}`;
 * - Markdown (aider): a last line `<!-- compaction_lab … -->`, invisible when rendered.
 *
 * `sniff` takes the record out before detection and parsing (importers never see it) and the
 * import applies it by message position, after checking that the conversation it describes is
 * the one that was read (same roles in the same order); a record that does not match is dropped
 * with a warning, never applied to the wrong messages.
 */
export const RECORD_KEY = 'compaction_lab'

const ref = z.object({ m: z.number().int().min(0), p: z.number().int().min(0) })

const recordSchema = z.object({
  v: z.literal(1),
  /** One letter per written message (s/u/a/t): what the record was written against. */
  roles: z.string(),
  /**
   * Indexes of injected messages (context the agent sent, not a human turn). Formats infer this
   * from content and position, and an inserted summary can change the inference (SWE-agent reads
   * every user message after the first assistant one as an observation), so it is recorded.
   */
  injected: z.array(z.number().int().min(0)).optional(),
  /**
   * Parts per written message. Some formats merge what we wrote as two messages (Codex reads
   * consecutive model outputs as one turn, Claude Code lines with one `message.id`): the import
   * splits them again at these boundaries.
   */
  sizes: z.array(z.number().int().min(0)).optional(),
  summaries: z
    .array(
      z.object({
        m: z.number().int().min(0),
        strategy: z.string(),
        groups: z.array(z.string()),
      }),
    )
    .default([]),
  parts: z
    .array(ref.extend({ by: z.array(z.string()), newer: z.array(ref).optional() }))
    .default([]),
  /** The hidden prefix and scale the compacting run measured with (ConversationMeta). */
  accounting: z
    .object({
      prefixTokens: z.number().min(0),
      scale: z.number().gt(0),
      changedFrom: z.number().int().min(0).optional(),
    })
    .optional(),
})

export type CompactionRecord = z.output<typeof recordSchema>

/** How each format carries the record (see above). */
export type RecordCarrier = 'json' | 'jsonl' | 'markdown'

export const RECORD_CARRIER: Readonly<Record<FormatId, RecordCarrier>> = {
  'claude-code': 'jsonl',
  codex: 'jsonl',
  aider: 'markdown',
  'openai-chat': 'json',
  'openai-responses': 'json',
  'anthropic-messages': 'json',
  gemini: 'json',
  'gemini-cli': 'json',
  opencode: 'json',
  'swe-agent': 'json',
  openhands: 'json',
  langchain: 'json',
  'ai-sdk': 'json',
}

const ROLE_LETTER: Record<Role, string> = { system: 's', user: 'u', assistant: 'a', tool: 't' }
const rolesOf = (messages: readonly Message[]) => messages.map((m) => ROLE_LETTER[m.role]).join('')

/** The compaction state of a conversation, or null when it carries none (a plain transcript). */
export function recordOf(conversation: Conversation): CompactionRecord | null {
  const { messages } = conversation
  let indexOf: Map<string, number> | null = null
  const summaries: CompactionRecord['summaries'] = []
  const parts: CompactionRecord['parts'] = []
  messages.forEach((m, mi) => {
    if (m.summaryOf)
      summaries.push({ m: mi, strategy: m.summaryOf.strategy, groups: [...m.summaryOf.groups] })
    m.parts.forEach((p, pi) => {
      const by = p.meta?.compactedBy
      if (!Array.isArray(by)) return
      const entry: CompactionRecord['parts'][number] = {
        m: mi,
        p: pi,
        by: by.filter((x): x is string => typeof x === 'string'),
      }
      const list = p.meta?.supersededBy
      if (Array.isArray(list)) {
        indexOf ??= new Map(messages.map((x, i) => [x.id, i]))
        const newer: { m: number; p: number }[] = []
        for (const n of list as { messageId?: unknown; part?: unknown }[]) {
          const at = typeof n?.messageId === 'string' ? indexOf.get(n.messageId) : undefined
          if (at !== undefined && typeof n.part === 'number') newer.push({ m: at, p: n.part })
        }
        if (newer.length > 0) entry.newer = newer
      }
      parts.push(entry)
    })
  })
  const carried = conversation.meta.carriedAccounting
  // A run that only dropped groups leaves no mark on the messages, but its measurement (and where
  // the reported usage stops describing the file) must still travel with the file.
  if (summaries.length === 0 && parts.length === 0 && !carried) return null
  const injected = messages.flatMap((m, i) => (m.injected ? [i] : []))
  const sizes = messages.map((m) => m.parts.length)
  return {
    v: 1,
    roles: rolesOf(messages),
    injected,
    sizes,
    summaries,
    parts,
    ...(carried ? { accounting: carried } : {}),
  }
}

/** The record as JSON text that is safe inside an HTML comment (no `-->`, no `<!--`). */
function recordJson(record: CompactionRecord): string {
  return JSON.stringify(record).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')
}

/** `text` (a serializer's output) with the record added as its last top-level item. */
export function attachRecord(
  text: string,
  carrier: RecordCarrier,
  record: CompactionRecord | null,
): string {
  if (!record) return text
  const json = recordJson(record)
  if (carrier === 'jsonl') {
    const body = text.endsWith('\n') || text === '' ? text : `${text}\n`
    return `${body}{"${RECORD_KEY}":${json}}\n`
  }
  if (carrier === 'markdown') {
    const body = text.endsWith('\n') || text === '' ? text : `${text}\n`
    return `${body}\n<!-- ${RECORD_KEY} ${json} -->\n`
  }
  const end = text.trimEnd()
  const close = end[end.length - 1]
  const open = close === '}' ? '{' : close === ']' ? '[' : undefined
  if (!open) return text // not a JSON document: nothing we can add to safely
  const inner = end.slice(0, -1).trimEnd()
  const empty = inner.endsWith(open)
  const pretty = end.includes('\n')
  const item = close === '}' ? `"${RECORD_KEY}": ${json}` : `{"${RECORD_KEY}": ${json}}`
  const sep = empty ? '' : ','
  const tail = text.slice(end.length)
  const indent = /\n([ \t]+)\S/.exec(end)?.[1] ?? '  '
  return pretty
    ? `${inner}${sep}\n${indent}${item}\n${close}${tail}`
    : `${inner}${sep}${item}${close}${tail}`
}

/** A record as found in a file: not yet validated (a hand-edited file may hold anything). */
export interface FoundRecord {
  readonly raw: unknown
}

/** The record of a parsed JSON document, and the document without it. */
export function takeFromJson(value: unknown): { value: unknown; record?: FoundRecord } {
  if (isObject(value) && Object.hasOwn(value, RECORD_KEY)) {
    const { [RECORD_KEY]: raw, ...rest } = value
    return { value: rest, record: { raw } }
  }
  if (Array.isArray(value) && value.length > 0) {
    const last: unknown = value[value.length - 1]
    if (isRecordItem(last)) return { value: value.slice(0, -1), record: { raw: last[RECORD_KEY] } }
  }
  return { value }
}

/** `{"compaction_lab": …}` and nothing else: a record line or array element. */
export function isRecordItem(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, RECORD_KEY)
}

const MARKDOWN_RECORD = /^<!-- compaction_lab (\{[^\n]*\}) -->\s*$/

/** The record at the end of a Markdown text, and the text without it. */
export function takeFromMarkdown(text: string): { text: string; record?: FoundRecord } {
  const at = text.lastIndexOf('<!-- compaction_lab ')
  if (at < 0 || (at > 0 && text[at - 1] !== '\n')) return { text }
  const m = MARKDOWN_RECORD.exec(text.slice(at))
  if (!m?.[1]) return { text }
  try {
    const raw = parseJson(m[1])
    const before = text.slice(0, at)
    return { text: before.endsWith('\n\n') ? before.slice(0, -1) : before, record: { raw } }
  } catch {
    return { text }
  }
}

/**
 * Apply a found record to a parsed conversation: summaries get `summaryOf`, replaced parts get
 * `meta.compactedBy` (and `supersededBy`, with the message ids this import assigned). Only when
 * the record matches the conversation read; otherwise a warning says why it was left out.
 */
export function applyRecord(result: ParseResult, found: FoundRecord | undefined): ParseResult {
  if (!found || !result.ok) return result
  const parsed = recordSchema.safeParse(found.raw)
  const skip = (why: string): ParseResult => ({
    ...result,
    warnings: [
      ...result.warnings,
      warning(0, 0, `the ${RECORD_KEY} record (our compaction marker) was not applied: ${why}`),
    ],
  })
  if (!parsed.success)
    return skip(`it is not a valid record (${parsed.error.issues[0]?.message ?? 'invalid'})`)
  const record = parsed.data
  const read = result.conversation
  const roles = rolesOf(read.messages)
  const realigned = roles === record.roles ? read.messages : resplit(read.messages, record)
  if (!realigned)
    return skip(
      `it describes ${record.roles.length} message(s) (${record.roles}), the file holds ${read.messages.length} (${roles})`,
    )
  const conversation = realigned === read.messages ? read : { ...read, messages: realigned }
  const messages: (Message & { parts: Part[] })[] = conversation.messages.map((m) => ({
    ...m,
    parts: [...m.parts],
  }))
  const problems: string[] = []
  if (record.injected) {
    const injected = new Set(record.injected)
    messages.forEach((m, i) => {
      if (injected.has(i) === (m.injected === true)) return
      const { injected: _flag, ...rest } = m
      messages[i] = injected.has(i) ? { ...rest, injected: true } : rest
    })
  }
  for (const s of record.summaries) {
    const m = messages[s.m]
    if (m) messages[s.m] = { ...m, summaryOf: { strategy: s.strategy, groups: s.groups } }
  }
  for (const entry of record.parts) {
    const m = messages[entry.m]
    const part = m?.parts[entry.p]
    if (!m || !part) {
      problems.push(`message ${entry.m} has no part ${entry.p}`)
      continue
    }
    const newer = (entry.newer ?? [])
      .filter((n) => messages[n.m] !== undefined)
      .map((n) => ({ messageId: (messages[n.m] as Message).id, part: n.p }))
    m.parts[entry.p] = {
      ...part,
      meta: {
        ...part.meta,
        compactedBy: entry.by,
        ...(newer.length > 0 ? { supersededBy: newer } : {}),
      },
    } as Part
  }
  const warnings: ParseWarning[] = problems.length
    ? [
        warning(
          0,
          0,
          `${RECORD_KEY} record: ${problems.slice(0, 3).join('; ')}; those marks were left out`,
        ),
      ]
    : []
  const meta = record.accounting
    ? { ...conversation.meta, carriedAccounting: record.accounting }
    : conversation.meta
  // Our summaries are written with the format's native marker (a Claude Code compact boundary,
  // a Codex `compacted` item…) so the agent sees them as compacted, and the importer reads that
  // marker as an upstream compaction. They are ours: as in the projection that wrote them, they
  // are summary groups, not a restart of the context that protects them verbatim (fuzz input
  // 20147: a second summarising step summarised again around the "upstream" summary).
  const ours = new Set(record.summaries.map((s) => messages[s.m]?.id))
  const markers = conversation.markers.filter(
    (k) => k.kind !== 'upstream_compaction' || !ours.has(messages[k.beforeIndex]?.id),
  )
  return {
    ...result,
    conversation: { ...conversation, meta, messages, markers },
    warnings: [...result.warnings, ...warnings],
  }
}

/**
 * The messages read, split again where the record says we wrote separate messages that the
 * format merged: each message read must be the concatenation of consecutive written messages of
 * its role. Null when that is not so (the file was edited): the record is then not applied.
 */
function resplit(read: readonly Message[], record: CompactionRecord): readonly Message[] | null {
  const sizes = record.sizes
  if (!sizes || sizes.length !== record.roles.length) return null
  const out: Message[] = []
  const used = new Set(read.map((m) => m.id))
  let w = 0
  for (const m of read) {
    const pieces: number[] = []
    let taken = 0
    while (taken < m.parts.length || pieces.length === 0) {
      const size = sizes[w]
      if (size === undefined || record.roles[w] !== ROLE_LETTER[m.role]) return null
      pieces.push(size)
      taken += size
      w++
      if (size === 0 && m.parts.length === 0) break
    }
    if (taken !== m.parts.length) return null
    if (pieces.length === 1) {
      out.push(m)
      continue
    }
    const lines = splitLines(m.source?.lines, pieces)
    let at = 0
    pieces.forEach((size, k) => {
      let id = m.id
      if (k > 0) {
        let n = k + 1
        while (used.has(`${m.id}#${n}`)) n++
        id = `${m.id}#${n}`
        used.add(id)
      }
      const { source: _source, usage, ...rest } = m
      const { lines: _lines, ...otherSource } = m.source ?? {}
      const source = lines
        ? { ...m.source, lines: lines[k] }
        : Object.keys(otherSource).length > 0
          ? otherSource
          : undefined
      out.push({
        ...rest,
        id,
        parts: m.parts.slice(at, at + size),
        ...(source ? { source } : {}),
        // The reported usage belongs to the model call that ended with the last piece.
        ...(usage && k === pieces.length - 1 ? { usage } : {}),
      })
      at += size
    })
  }
  return w === sizes.length ? out : null
}

/**
 * A JSON Lines message's source line records (`{line, envelope, parts}` each) split at the same
 * part boundaries, so the pieces are written back from their own lines; null when the records do
 * not fall on those boundaries (the pieces are then written anew).
 */
function splitLines(lines: unknown, pieces: readonly number[]): unknown[][] | null {
  if (!Array.isArray(lines)) return null
  const out: unknown[][] = []
  let r = 0
  for (const size of pieces) {
    const group: unknown[] = []
    let parts = 0
    while (parts < size) {
      const rec: unknown = lines[r++]
      if (!isObject(rec) || typeof rec.parts !== 'number') return null
      group.push(rec)
      parts += rec.parts
    }
    if (parts !== size) return null
    out.push(group)
  }
  return r === lines.length ? out : null
}
