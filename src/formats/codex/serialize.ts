import type { Conversation, Message } from '../../engine/model.ts'
import { exportSummaryHint, summaryText } from '../export-summary.ts'
import { isObject, str } from '../util.ts'
import { type ExtraLine, LAB_ID, type LineRecord } from './lines.ts'
import { freshItems, rebuildItem } from './write.ts'

interface OutLine {
  /** Original line number (fractional for messages that did not come from the file). */
  readonly key: number
  readonly seq: number
  readonly value: unknown
}

/**
 * Write a conversation back as a Codex rollout: kept lines (session_meta, events, turn
 * contexts, compacted) at their original positions, message items rebuilt from the parts on
 * their original lines, and fresh `response_item` lines for messages a compaction added.
 */
export function serializeCodex(conversation: Conversation): string {
  const out: OutLine[] = []
  let seq = 0
  let last = 0
  let metaDone = false
  const extras = conversation.source?.extras
  if (Array.isArray(extras)) {
    for (const e of extras as ExtraLine[]) {
      let value = e.value
      if (!metaDone && isObject(value) && value.type === 'session_meta') {
        value = withInstructions(value, conversation)
        metaDone = true
      }
      out.push({ key: e.line, seq: seq++, value })
    }
  }
  const callTypes = new Map<string, string>()
  for (const m of conversation.messages) {
    for (const p of m.parts) {
      if (p.kind === 'tool_call' && p.callId !== null && p.callType)
        callTypes.set(p.callId, p.callType)
    }
  }
  // The importer reads an event prompt that follows a user item (before the next model output)
  // as that item's UI copy: after an exported summary, such a prompt is written as an item too.
  let userItemSinceOutput = false
  conversation.messages.forEach((m, index) => {
    const recs = lineRecords(m)
    const objects = recs ? fromRecords(m, recs) : undefined
    if (m.role === 'assistant') userItemSinceOutput = false
    if (recs && objects && m.source?.fromEvent === true && userItemSinceOutput) {
      const key = recs[0]?.line ?? last + 0.5
      const timestamp = m.timestamp ?? str(recs[0]?.envelope.timestamp)
      for (const payload of freshItems(m.parts, 'user', callTypes))
        out.push({
          key,
          seq: seq++,
          value: { ...(timestamp ? { timestamp } : {}), type: 'response_item', payload },
        })
    }
    if (m.role === 'user' && !m.injected) userItemSinceOutput = true
    if (recs && objects) {
      pinId(objects, m.id, index)
      objects.forEach((value, i) => {
        const key = recs[i]?.line ?? last + 0.5
        out.push({ key, seq: seq++, value })
        last = Math.max(last, key)
      })
      return
    }
    const timestamp = m.timestamp ?? str(recs?.[0]?.envelope.timestamp)
    const fresh: unknown[] = freshItems(m.parts, m.role, callTypes).map((payload) => ({
      ...(timestamp ? { timestamp } : {}),
      type: 'response_item',
      payload,
    }))
    pinId(fresh, m.id, index)
    if (!recs && exportSummaryHint(m)?.leading) {
      // Codex's own compaction record; replacement_history is filled in once the order is known.
      const payload = { message: summaryText(m), replacement_history: [] }
      out.push({ key: last + 0.5, seq: seq++, value: compactedLine(timestamp, payload) })
    }
    for (const value of fresh) out.push({ key: last + 0.5, seq: seq++, value })
  })
  out.sort((a, b) => a.key - b.key || a.seq - b.seq)
  fillReplacementHistory(out)
  return out.map((o) => JSON.stringify(o.value)).join('\n') + '\n'
}

const FRESH_COMPACTED = Symbol('fresh compacted line')

function compactedLine(timestamp: string | undefined, payload: Record<string, unknown>): unknown {
  return {
    ...(timestamp ? { timestamp } : {}),
    type: 'compacted',
    payload,
    [FRESH_COMPACTED]: true,
  }
}

/**
 * A `compacted` line with `replacement_history` replaces everything before it when Codex resumes
 * (formats.md §7): for a summary the export inserted, that history is the items still written
 * before it since the previous `compacted` line (the injected context the projection kept), so
 * Codex rebuilds exactly the projection: those items, then the summary message that follows.
 */
function fillReplacementHistory(out: OutLine[]): void {
  let items: unknown[] = []
  for (const o of out) {
    const v = o.value
    if (!isObject(v)) continue
    if (v.type === 'response_item') items.push(v.payload)
    else if (v.type === 'compacted') {
      if (FRESH_COMPACTED in v && isObject(v.payload)) v.payload.replacement_history = items.slice()
      items = []
    }
  }
}

/**
 * Event lines that repeat message content for Codex's UI (prompts, replies, reasoning, command
 * output). A compacted export drops them: they would carry excluded or stubbed content along,
 * and a prompt event whose item was excluded would come back as a message on import.
 */
const ECHO_EVENTS: ReadonlySet<string> = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'exec_command_end',
  'patch_apply_end',
])

/** The conversation without the `event_msg` lines that echo message content (see above). */
export function withoutEventEchoes(conversation: Conversation): {
  conversation: Conversation
  dropped: number
} {
  const extras = conversation.source?.extras
  if (!Array.isArray(extras)) return { conversation, dropped: 0 }
  const kept = (extras as ExtraLine[]).filter((e) => {
    const v = e.value
    return !(
      isObject(v) &&
      v.type === 'event_msg' &&
      isObject(v.payload) &&
      ECHO_EVENTS.has(str(v.payload.type) ?? '')
    )
  })
  return {
    conversation: { ...conversation, source: { ...conversation.source, extras: kept } },
    dropped: extras.length - kept.length,
  }
}

function lineRecords(m: Message): readonly LineRecord[] | undefined {
  const lines = m.source?.lines
  if (!Array.isArray(lines) || lines.length === 0) return undefined
  return lines.every((r) => isObject(r) && isObject(r.envelope) && typeof r.parts === 'number')
    ? (lines as LineRecord[])
    : undefined
}

/**
 * Re-import names a message by its item id, else by position (`m<index>`). When neither gives
 * back the canonical id (messages were inserted/removed before it), pin it on the first line.
 */
function pinId(lines: unknown[], id: string, index: number): void {
  const first = lines[0]
  if (!isObject(first)) return
  const own = str(first[LAB_ID]) ?? (isObject(first.payload) ? str(first.payload.id) : undefined)
  if (own === id || (own === undefined && id === `m${index}`)) return
  lines[0] = { ...first, [LAB_ID]: id }
}

/** Rewrite each source line with the parts it produced; undefined when the parts changed shape. */
function fromRecords(m: Message, recs: readonly LineRecord[]): unknown[] | undefined {
  const total = recs.reduce((n, r) => n + r.parts, 0)
  if (total !== m.parts.length) return undefined
  if (m.source?.fromEvent === true) {
    // A prompt that only existed as an event: write the event back, not an invented item.
    const env = recs[0]?.envelope
    const only = m.parts[0]
    if (!env || recs.length !== 1 || m.parts.length !== 1 || only?.kind !== 'text') return undefined
    const payload = isObject(env.payload) ? env.payload : {}
    return [{ ...env, payload: { ...payload, message: only.text } }]
  }
  const lines: unknown[] = []
  let at = 0
  for (const rec of recs) {
    const parts = m.parts.slice(at, at + rec.parts)
    at += rec.parts
    const orig = rec.envelope.payload
    const item = isObject(orig) ? rebuildItem(orig, parts, m.role) : undefined
    if (!item) return undefined
    lines.push({ ...rec.envelope, payload: item })
  }
  return lines
}

/** Write a changed system prompt back into session_meta (untouched when it is the same). */
function withInstructions(line: Record<string, unknown>, c: Conversation): unknown {
  const payload = isObject(line.payload) ? line.payload : undefined
  if (!payload) return line
  const text = c.system.map((p) => p.text).join('\n\n')
  const base = isObject(payload.base_instructions) ? payload.base_instructions : undefined
  const orig = base ? str(base.text) : str(payload.instructions)
  if (orig === undefined ? c.system.length === 0 : orig === text) return line
  if (base || orig === undefined) {
    return { ...line, payload: { ...payload, base_instructions: { ...base, text } } }
  }
  return { ...line, payload: { ...payload, instructions: text } }
}
