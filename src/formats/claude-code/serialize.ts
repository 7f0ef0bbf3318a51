import type { Conversation, Message, Part } from '../../engine/model.ts'
import { exportSummaryHint } from '../export-summary.ts'
import { isObject, str } from '../util.ts'
import { partToBlock } from './blocks.ts'
import type { ExtraLine, LineRecord } from './lines.ts'

interface OutLine {
  /** Original line number (fractional for messages that did not come from the file). */
  readonly key: number
  readonly seq: number
  readonly value: unknown
  /** A line written fresh: its parent is the previous line of its chain (set after sorting). */
  readonly chain?: true
  /** The thread of the message the line was written for (`main` or its sidechain label). */
  readonly thread?: string
}

/**
 * Write a conversation back as a Claude Code session file: one line per content block for
 * assistant messages that still match their source lines, the kept non-message lines at their
 * original positions, and fresh lines for messages a compaction added.
 */
export function serializeClaudeCode(conversation: Conversation): string {
  const out: OutLine[] = []
  let seq = 0
  let last = 0
  const extras = conversation.source?.extras
  if (Array.isArray(extras)) {
    for (const e of extras as ExtraLine[]) out.push({ key: e.line, seq: seq++, value: e.value })
  }
  const plans = conversation.messages.map((m) => {
    const recs = lineRecords(m)
    return { recs, objects: recs ? fromRecords(m, recs) : undefined }
  })
  // The first source line of the next message written from its lines: a fresh message must land
  // before it, or the re-import (messages in order of their first line) would move it. An
  // assistant message's lines can lie far apart (merged by message.id), so "after the previous
  // message's last line" is not enough.
  const nextFirst = new Array<number>(plans.length).fill(Infinity)
  for (let i = plans.length - 2; i >= 0; i--) {
    const p = plans[i + 1]
    const first = p?.recs && p.objects ? p.recs[0]?.line : undefined
    nextFirst[i] = first ?? nextFirst[i + 1] ?? Infinity
  }
  const sourceKeys: number[] = []
  const baseBelow = (bound: number): number => {
    if (last < bound) return last
    let base = 0
    for (const k of sourceKeys) if (k < bound && k > base) base = k
    return base
  }
  conversation.messages.forEach((m, index) => {
    const { recs, objects } = plans[index] as (typeof plans)[number]
    if (recs && objects) {
      pinId(objects, m, index)
      objects.forEach((value, i) => {
        const key = recs[i]?.line ?? last + 0.5
        out.push({ key, seq: seq++, value, thread: m.sidechain ?? 'main' })
        sourceKeys.push(key)
        last = Math.max(last, key)
      })
    } else {
      const template = recs?.[0]?.envelope
      const bound = nextFirst[index] ?? Infinity
      const base = baseBelow(bound)
      const key = Number.isFinite(bound) ? (base + bound) / 2 : base + 0.5
      for (const value of freshLines(m, conversation, template)) {
        const root = isObject(value) && value.subtype === 'compact_boundary'
        out.push({
          key,
          seq: seq++,
          value,
          thread: m.sidechain ?? 'main',
          ...(template || root ? {} : { chain: true }),
        })
      }
    }
  })
  out.sort((a, b) => a.key - b.key || a.seq - b.seq)
  const dangling = conversation.source?.danglingParents
  relinkParents(out, new Set(Array.isArray(dangling) ? (dangling as string[]) : []))
  return out.map((o) => JSON.stringify(o.value)).join('\n') + '\n'
}

/**
 * Lines without a uuid (user) or `message.id` (assistant), as in `claude -p` stream-json, import
 * with positional ids (`m<index>`): when edits moved a message, write its id so it survives.
 */
function pinId(lines: unknown[], m: Message, index: number): void {
  const first = lines[0]
  if (!isObject(first) || m.id === `m${index}`) return
  const message = isObject(first.message) ? first.message : undefined
  if (m.role === 'assistant') {
    if (message && str(message.id) === undefined)
      lines[0] = { ...first, message: { ...message, id: m.id } }
  } else if (str(first.uuid) === undefined) lines[0] = { ...first, uuid: m.id }
}

function lineRecords(m: Message): readonly LineRecord[] | undefined {
  const lines = m.source?.lines
  if (!Array.isArray(lines) || lines.length === 0) return undefined
  return lines.every((r) => isObject(r) && isObject(r.envelope) && typeof r.parts === 'number')
    ? (lines as LineRecord[])
    : undefined
}

/** Rewrite each source line with the parts it produced; undefined when the parts changed shape. */
function fromRecords(m: Message, recs: readonly LineRecord[]): unknown[] | undefined {
  const total = recs.reduce((n, r) => n + r.parts, 0)
  if (total !== m.parts.length) return undefined
  const lines: unknown[] = []
  let at = 0
  for (const rec of recs) {
    const parts = m.parts.slice(at, at + rec.parts)
    at += rec.parts
    lines.push(withContent(rec.envelope, parts))
  }
  return lines
}

function withContent(envelope: Record<string, unknown>, parts: readonly Part[]): unknown {
  const message = isObject(envelope.message) ? envelope.message : {}
  const prev = message.content
  const prevBlocks = Array.isArray(prev) ? prev : []
  let content: unknown
  const onlyText = parts.length === 1 && parts[0]?.kind === 'text'
  if (typeof prev === 'string' && onlyText) content = parts[0]?.kind === 'text' ? parts[0].text : ''
  else content = parts.map((p, i) => partToBlock(p, prevBlocks[i]))
  if ('toolUseResult' in envelope && resultChanged(parts, prevBlocks)) {
    // toolUseResult repeats the full original output for the UI: a trimmed or stubbed result
    // must not keep it, or the "compacted" file still carries everything.
    const { toolUseResult: _dropped, ...rest } = envelope
    return { ...rest, message: { ...message, content } }
  }
  return { ...envelope, message: { ...message, content } }
}

function resultChanged(parts: readonly Part[], prevBlocks: readonly unknown[]): boolean {
  return parts.some((p, i) => {
    if (p.kind !== 'tool_result') return false
    const prev = prevBlocks[i]
    if (!isObject(prev)) return true
    const before = prev.content
    const text = (c: unknown): string =>
      typeof c === 'string' ? c : isObject(c) ? (str(c.text) ?? `[${String(c.type)}]`) : ''
    const beforeText = Array.isArray(before) ? before.map(text).join('') : text(before)
    const afterText = p.content.map((c) => (c.kind === 'text' ? c.text : `[${c.kind}]`)).join('')
    return beforeText !== afterText
  })
}

/** Lines for a message the source file did not have (or whose parts no longer match it). */
/** Labels the parser gives inline sidechains that have no agent id. */
const INLINE_SIDECHAIN = /^sidechain( #\d+)?$/

function freshLines(m: Message, c: Conversation, template?: Record<string, unknown>): unknown[] {
  const isAssistant = m.role === 'assistant'
  const base: Record<string, unknown> = template
    ? { ...template }
    : {
        parentUuid: null,
        isSidechain: m.sidechain !== undefined,
        userType: 'external',
        ...(c.meta.cwd ? { cwd: c.meta.cwd } : {}),
        ...(c.meta.sessionId ? { sessionId: c.meta.sessionId } : {}),
        type: isAssistant ? 'assistant' : 'user',
      }
  base.type = isAssistant ? 'assistant' : 'user'
  if (m.sidechain !== undefined && !INLINE_SIDECHAIN.test(m.sidechain) && !template)
    base.agentId = m.sidechain
  // A kept line keeps its uuid; a new user line's uuid is the message id (what import reads back).
  if (!template) base.uuid = isAssistant ? `${m.id}-0` : m.id
  if (m.timestamp) base.timestamp = m.timestamp
  if ((m.injected || m.role === 'system') && !isAssistant && !template) base.isMeta = true
  const prevMessage = template && isObject(template.message) ? template.message : {}
  const blocks = m.parts.map((p) => partToBlock(p))
  if (isAssistant) {
    const message = {
      ...prevMessage,
      id: str(prevMessage.id) ?? m.id,
      type: 'message',
      role: 'assistant',
      ...(m.model ? { model: m.model } : {}),
      content: blocks,
    }
    // Several blocks in one line is valid and re-imports as the same single message.
    return [{ ...base, message }]
  }
  const only = m.parts[0]
  const content = m.parts.length === 1 && only?.kind === 'text' ? only.text : blocks
  const hint = template ? undefined : exportSummaryHint(m)
  if (hint?.leading) return compactLines(m, base, content, hint.preTokens)
  if (hint) base.isMeta = true
  return [{ ...base, message: { role: 'user', content } }]
}

/**
 * An inserted summary that starts the history, written as Claude Code writes a compaction: a
 * `compact_boundary` system line (a new root, `logicalParentUuid` set after sorting) and the
 * `isCompactSummary` user line holding the summary, so Claude Code resumes from it.
 */
function compactLines(
  m: Message,
  base: Record<string, unknown>,
  content: unknown,
  preTokens: number | undefined,
): unknown[] {
  const boundaryId = `${m.id}-boundary`
  const { isMeta: _meta, ...envelope } = base
  const boundary = {
    ...envelope,
    parentUuid: null,
    logicalParentUuid: null,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    compactMetadata: { trigger: 'manual', ...(preTokens !== undefined ? { preTokens } : {}) },
    uuid: boundaryId,
  }
  const summary = {
    ...envelope,
    parentUuid: boundaryId,
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: { role: 'user', content },
  }
  return [boundary, summary]
}

/**
 * Lines whose parent was removed (a compaction dropped it), and lines written fresh, are attached
 * to the previous line of the same thread, so Claude Code can still walk the tree (a fresh
 * boundary stays a root and points back through `logicalParentUuid`). Untouched files are not
 * changed, and neither is a link that already dangled in the source file (`danglingParents`).
 *
 * Threads, not just "sidechain or not": an inline sub-agent run starts at a root line, and the
 * parser tells runs apart by those roots. When a compaction drops a run's root, its first kept
 * line must become the root (parent null), or the re-import would merge it into the previous run
 * and measure one context where there were two.
 */
function relinkParents(out: OutLine[], dangling: ReadonlySet<string>): void {
  const present = new Set<string>()
  for (const o of out) {
    const uuid = isObject(o.value) ? str(o.value.uuid) : undefined
    if (uuid !== undefined) present.add(uuid)
  }
  const lastOf = new Map<string, string>()
  let lastSidechain = 'sidechain'
  for (let i = 0; i < out.length; i++) {
    const o = out[i]
    if (!o || !isObject(o.value)) continue
    const v = o.value
    const thread = o.thread ?? (v.isSidechain === true ? lastSidechain : 'main')
    if (v.isSidechain === true) lastSidechain = thread
    const parent = str(v.parentUuid)
    if (o.chain || (parent !== undefined && !present.has(parent) && !dangling.has(parent))) {
      out[i] = { ...o, value: { ...v, parentUuid: lastOf.get(thread) ?? null } }
    } else if (v.subtype === 'compact_boundary' && v.logicalParentUuid === null) {
      out[i] = { ...o, value: { ...v, logicalParentUuid: lastOf.get(thread) ?? null } }
    }
    const uuid = str(v.uuid)
    if (uuid !== undefined) lastOf.set(thread, uuid)
  }
}
