import type { Message, Part, ReportedUsage, UpstreamMarker } from '../../engine/model.ts'
import type { ImportOptions, JsonlLine, ParseResult, ParseWarning, SniffedInput } from '../types.ts'
import {
  describe,
  fail,
  failAtInput,
  IdAllocator,
  isObject,
  linesOf,
  num,
  ok,
  parseError,
  str,
  warning,
} from '../util.ts'
import { blockToPart } from './blocks.ts'
import { type ExtraLine, type LineRecord } from './lines.ts'
import { threadsOf } from './threads.ts'
import { newMessage } from '../shapes.ts'
import { pushAll } from '../../engine/arrays.ts'
import { mapItems } from '../../engine/arrays.ts'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Draft = Mutable<Omit<Message, 'parts' | 'source'>> & {
  parts: Part[]
  source: { lines: LineRecord[] }
}
type MarkerDraft = Mutable<UpstreamMarker>

/** Wrappers Claude Code puts around slash commands and their local output (not prompts). */
const COMMAND_WRAPPER =
  /^\s*<(command-name|command-message|command-args|command-contents|local-command-stdout|local-command-stderr|local-command-caveat)>/
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g
const INTERRUPTED = /^\s*\[Request interrupted by user/

/**
 * Parse a Claude Code session file in one linear pass: assistant lines (one content block each)
 * are merged by `message.id`; every line that is not a message is kept in `conversation.source`
 * with its line number so the serializer can write the file back.
 */
export function parseClaudeCode(input: SniffedInput, options?: ImportOptions): ParseResult {
  const warnings: ParseWarning[] = input.kind === 'jsonl' ? [...input.bad] : []
  const lines = linesOf(input)
  if (lines.length === 0) {
    return failAtInput(
      input,
      'expected Claude Code JSON Lines (one object per line), found none',
      warnings,
    )
  }
  const threads = threadsOf(lines, options?.fileName)
  const ids = new IdAllocator()
  const messages: Draft[] = []
  const extras: ExtraLine[] = []
  const markers: MarkerDraft[] = []
  const groups = new Map<string, { draft: Draft; uuids: Set<string> }>()
  const children = new Map<string, number>()
  const typeCounts = new Map<string, number>()
  // A compact_boundary waits for the isCompactSummary line that follows it (its summary text).
  let awaitingSummary: MarkerDraft | undefined
  let title: string | undefined
  let sessionId: string | undefined
  let cwd: string | undefined
  let model: string | undefined
  let microcompactions = 0

  const keep = (l: JsonlLine, type: string) => {
    extras.push({ line: l.line, value: l.value })
    typeCounts.set(type, (typeCounts.get(type) ?? 0) + 1)
  }
  // Markers point at messages.length when seen: the index the next message will get.
  const push = (draft: Draft) => messages.push(draft)

  for (let li = 0; li < lines.length; li++) {
    const l = lines[li] as JsonlLine
    const v = l.value
    if (!isObject(v) || typeof v.type !== 'string') {
      warnings.push(
        warning(
          l.line,
          l.offset,
          `expected an object with a string \`type\`, got ${describe(v)}; kept as is`,
        ),
      )
      keep(l, '(not an object)')
      continue
    }
    const type = v.type
    sessionId ??= str(v.sessionId) ?? str(v.session_id)
    cwd ??= str(v.cwd)
    if (type === 'summary') {
      title = str(v.summary) ?? title
      keep(l, type)
      continue
    }
    if (type === 'system') {
      if (v.subtype === 'compact_boundary') {
        const meta = isObject(v.compactMetadata) ? v.compactMetadata : {}
        const marker: MarkerDraft = {
          kind: 'upstream_compaction',
          beforeIndex: messages.length,
          origin: 'claude-code-boundary',
          trigger: str(meta.trigger),
          preTokens: num(meta.preTokens),
          line: l.line,
          raw: v,
        }
        markers.push(marker)
        awaitingSummary = marker
      } else if (v.subtype === 'microcompact_boundary') microcompactions++
      if (v.subtype === 'init') model = str(v.model) ?? model
      keep(l, v.subtype === undefined ? type : `${type}/${String(v.subtype)}`)
      continue
    }
    if (type !== 'user' && type !== 'assistant') {
      keep(l, type)
      continue
    }
    const message = v.message
    if (!isObject(message)) {
      warnings.push(
        warning(
          l.line,
          l.offset,
          `expected \`message\` to be an object on a ${type} line; line kept, no message made`,
        ),
      )
      keep(l, `${type} without message`)
      continue
    }
    const sidechain = threads[li]
    const uuid = str(v.uuid)
    const content = message.content
    const blocks: readonly unknown[] = Array.isArray(content)
      ? content
      : typeof content === 'string'
        ? [content]
        : []
    if (
      !Array.isArray(content) &&
      typeof content !== 'string' &&
      content !== undefined &&
      content !== null
    ) {
      warnings.push(
        warning(
          l.line,
          l.offset,
          `expected \`message.content\` to be a string or an array, got ${describe(content)}`,
        ),
      )
    }
    const parts = mapItems(blocks, (b) => blockToPart(b))

    if (type === 'assistant') {
      const msgId = str(message.id)
      const usage = usageOf(message.usage)
      const lineModel = str(message.model)
      if (lineModel && lineModel !== '<synthetic>') model = lineModel
      const group = msgId !== undefined ? groups.get(msgId) : undefined
      if (group && !(uuid !== undefined && group.uuids.has(uuid))) {
        // Another block of the same API response: the last line's usage snapshot wins.
        pushAll(group.draft.parts, parts)
        group.draft.source.lines.push({ line: l.line, envelope: v, parts: parts.length })
        if (usage) group.draft.usage = usage
        if (uuid !== undefined) group.uuids.add(uuid)
        countChild(children, v)
        continue
      }
      // Every field at once (shapes.ts): one hidden class for all messages of every importer.
      const draft = newMessage({
        id: ids.next(msgId ?? uuid, messages.length),
        role: 'assistant',
        parts,
        sidechain: sidechain || undefined,
        model: lineModel || undefined,
        timestamp: str(v.timestamp) || undefined,
        usage,
        line: l.line,
        source: { lines: [{ line: l.line, envelope: v, parts: parts.length }] },
      }) as Draft
      if (msgId !== undefined) groups.set(msgId, { draft, uuids: new Set(uuid ? [uuid] : []) })
      awaitingSummary = undefined
      countChild(children, v)
      push(draft)
      continue
    }

    const onlyResults = parts.length > 0 && parts.every((p) => p.kind === 'tool_result')
    const draft = newMessage({
      id: ids.next(uuid, messages.length),
      role: onlyResults ? 'tool' : 'user',
      parts,
      injected: !onlyResults && isInjected(v, parts) ? true : undefined,
      sidechain: sidechain || undefined,
      timestamp: str(v.timestamp) || undefined,
      line: l.line,
      source: { lines: [{ line: l.line, envelope: v, parts: parts.length }] },
    }) as Draft
    if (!onlyResults) countChild(children, v)
    if (v.isCompactSummary === true) {
      const summary = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')
      if (awaitingSummary) awaitingSummary.summary = summary
      else {
        markers.push({
          kind: 'upstream_compaction',
          beforeIndex: messages.length,
          origin: 'claude-code-summary',
          summary,
          line: l.line,
          raw: v,
        })
      }
    }
    awaitingSummary = undefined
    push(draft)
  }

  if (messages.length === 0) {
    return fail(
      parseError(
        1,
        0,
        `expected Claude Code \`user\`/\`assistant\` lines with a \`message\`, found none in ${lines.length} lines`,
      ),
      warnings,
    )
  }
  const notes: string[] = []
  const kept = [...typeCounts].map(([t, n]) => `${n} ${t}`).join(', ')
  if (kept) notes.push(`lines kept for round trip, not messages: ${kept}`)
  const branches = [...children.values()].filter((n) => n > 1).length
  if (branches > 0) notes.push(`${branches} branches (rewinds) kept in file order`)
  const side = messages.filter((m) => m.sidechain !== undefined).length
  if (side > 0) notes.push(`${side} sidechain (subagent) messages kept, labelled`)
  if (microcompactions > 0)
    notes.push(
      `${microcompactions} microcompact_boundary lines (old tool results cleared upstream)`,
    )

  return ok(
    {
      meta: {
        format: 'claude-code',
        ...(model ? { model } : {}),
        ...(cwd ? { cwd } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(title ? { title } : {}),
        ...(notes.length ? { notes } : {}),
      },
      system: [],
      tools: [],
      messages,
      markers,
      source: { extras, ...danglingParents(lines) },
    },
    warnings,
  )
}

/**
 * Parents named by a line but absent from the file (a session cut from a longer one, a line lost):
 * the serializer keeps such a link as it is, and re-links only lines whose parent a compaction
 * removed. Absent for ordinary files.
 */
function danglingParents(lines: readonly JsonlLine[]): { danglingParents?: string[] } {
  const uuids = new Set<string>()
  for (const l of lines)
    if (isObject(l.value) && typeof l.value.uuid === 'string') uuids.add(l.value.uuid)
  const dangling = new Set<string>()
  for (const l of lines) {
    const parent = isObject(l.value) ? l.value.parentUuid : undefined
    if (typeof parent === 'string' && !uuids.has(parent)) dangling.add(parent)
  }
  return dangling.size > 0 ? { danglingParents: [...dangling] } : {}
}

/**
 * Count conversation children per parent. Tool results hang off their own tool_use line (so
 * parallel calls look like siblings): they are not counted, only real rewinds/edits are.
 */
function countChild(children: Map<string, number>, v: Record<string, unknown>): void {
  const parent = str(v.parentUuid)
  if (parent !== undefined) children.set(parent, (children.get(parent) ?? 0) + 1)
}

function isInjected(v: Record<string, unknown>, parts: readonly Part[]): boolean {
  if (v.isMeta === true || v.isCompactSummary === true || v.isVisibleInTranscriptOnly === true)
    return true
  if (parts.length === 0) return false
  return parts.every(
    (p) =>
      p.kind === 'text' &&
      (COMMAND_WRAPPER.test(p.text) ||
        INTERRUPTED.test(p.text) ||
        (p.text.includes('<system-reminder>') &&
          p.text.replace(SYSTEM_REMINDER, '').trim() === '')),
  )
}

/** Anthropic usage → context size = input + cache read + cache creation (formats.md §6). */
function usageOf(u: unknown): ReportedUsage | undefined {
  if (!isObject(u)) return undefined
  const input = num(u.input_tokens)
  const cacheRead = num(u.cache_read_input_tokens)
  const cacheWrite = num(u.cache_creation_input_tokens)
  const output = num(u.output_tokens)
  if (input === undefined && cacheRead === undefined && cacheWrite === undefined) return undefined
  return {
    contextTokens: (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
    source: 'claude-code usage snapshot',
  }
}
