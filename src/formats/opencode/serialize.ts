import type {
  Conversation,
  Message,
  Part,
  ToolCallPart,
  ToolResultPart,
} from '../../engine/model.ts'
import { exportSummaryHint } from '../export-summary.ts'
import { isObject, str } from '../util.ts'
import { CLEARED_OUTPUT, type Extra } from './parts.ts'
import { parseJson } from '../../engine/json.ts'

type Obj = Record<string, unknown>

function text(parts: ToolResultPart['content']): string {
  return parts.map((c) => (c.kind === 'text' ? c.text : '')).join('')
}

function rawOf(part: Part): Obj {
  const raw = part.meta?.raw
  return isObject(raw) ? { ...raw } : {}
}

/** One canonical part → an opencode part (tool results are folded in later). */
function toPart(part: Part, fallbackId: string): Obj | undefined {
  const id = str(part.meta?.partId) ?? fallbackId
  switch (part.kind) {
    case 'text': {
      const compaction = part.meta?.compaction
      if (isObject(compaction)) return { ...compaction }
      const out: Obj = { id, type: 'text', ...rawOf(part), text: part.text }
      if (part.meta?.synthetic === true) out.synthetic = true
      return out
    }
    case 'reasoning':
      return { id, type: 'reasoning', ...rawOf(part), text: part.text }
    case 'file':
    case 'image': {
      const url =
        part.data !== undefined
          ? `data:${part.mediaType ?? ''};base64,${part.data}`
          : (part.url ?? '')
      return {
        id,
        type: 'file',
        mime: part.mediaType ?? '',
        ...(part.kind === 'file' && part.filename ? { filename: part.filename } : {}),
        ...rawOf(part),
        url,
      }
    }
    case 'tool_call': {
      const raw = rawOf(part)
      const state = isObject(raw.state) ? raw.state : {}
      let input: unknown = part.args
      if (input === undefined) {
        try {
          input = parseJson(part.argsRaw) as unknown
        } catch {
          input = {}
        }
      }
      return {
        id,
        type: 'tool',
        ...raw,
        ...(part.callId !== null ? { callID: part.callId } : {}),
        tool: part.name,
        // Status is decided by the result folded in later; without one the call is pending.
        state: {
          ...state,
          status: state.status === 'running' ? 'running' : 'pending',
          input,
        },
      }
    }
    case 'opaque':
      return isObject(part.raw) ? { ...part.raw } : undefined
    case 'tool_result':
      return undefined
  }
}

function without(obj: Obj, ...keys: string[]): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v
  return out
}

/** Fold a result into its tool part (the original state fields come back with it). */
function applyResult(tool: Obj, call: ToolCallPart | undefined, result: ToolResultPart): void {
  const rawState =
    call && isObject(call.meta?.raw) && isObject(call.meta.raw.state) ? call.meta.raw.state : {}
  const state: Obj = { ...(isObject(tool.state) ? tool.state : {}), ...without(rawState, 'status') }
  const body = text(result.content)
  if (result.isError) {
    state.status = 'error'
    state.error = body
  } else {
    state.status = 'completed'
    const kept = result.meta?.compacted === true && body === CLEARED_OUTPUT
    state.output = kept
      ? result.meta?.originalOutput
      : 'outputValue' in (result.meta ?? {})
        ? result.meta?.outputValue
        : body
    if (!kept && isObject(state.time) && 'compacted' in state.time) {
      state.time = without(state.time, 'compacted')
    }
  }
  tool.state = state
}

interface Group {
  readonly msgId: string
  readonly messages: Message[]
}

/** Consecutive canonical messages that came from one opencode message (steps, runs, results). */
function groups(messages: readonly Message[]): Group[] {
  const out: Group[] = []
  for (const m of messages) {
    const last = out[out.length - 1]
    // A result message written without an opencode source (another format, a compaction) folds
    // into the assistant message before it, where opencode keeps call and result in one part.
    const foldable = m.role === 'tool' && !m.source && last?.messages[0]?.role === 'assistant'
    const msgId = str(m.source?.msgId) ?? (foldable ? last.msgId : m.id)
    // Same id and a role that belongs to it (a file may reuse an id across roles: keep apart).
    const lead = last?.messages[0]?.role
    if (last && last.msgId === msgId && (m.role === 'tool' || m.role === lead))
      last.messages.push(m)
    else out.push({ msgId, messages: [m] })
  }
  return out
}

function emitGroup(group: Group, sessionID: string | undefined): { info: Obj; parts: Obj[] } {
  const first = group.messages.find((m) => isObject(m.source?.info))
  const lead = group.messages[0]
  const role = lead?.role === 'user' ? 'user' : 'assistant'
  const info: Obj = isObject(first?.source?.info)
    ? { ...first.source.info }
    : {
        id: group.msgId,
        ...(sessionID ? { sessionID } : {}),
        role,
        time: { created: Date.parse(lead?.timestamp ?? '') || 0 },
      }
  // An inserted summary is what opencode's compaction writes: an assistant message `summary: true`.
  if (lead && role === 'assistant' && !first && exportSummaryHint(lead)) info.summary = true
  const parts: Obj[] = []
  const toolParts = new Map<string, { tool: Obj; call: ToolCallPart }>()
  let n = 0
  const answered = new Set<Obj>()
  for (const m of group.messages) {
    if (
      m.role === 'tool' ||
      (m.parts.every((p) => p.kind === 'tool_result') && m.parts.length > 0)
    ) {
      for (const p of m.parts) {
        if (p.kind !== 'tool_result') continue
        const key = str(p.meta?.partId) ?? p.callId ?? ''
        const hit =
          toolParts.get(key) ?? (p.callId !== null ? toolParts.get(`call:${p.callId}`) : undefined)
        if (hit && !answered.has(hit.tool)) {
          answered.add(hit.tool)
          applyResult(hit.tool, hit.call, p)
        } else {
          // The call was removed (compaction), or already holds a result (an id the source
          // reused): keep the result as a standalone tool part.
          const tool: Obj = {
            id: `prt_${group.msgId}_${n++}`,
            type: 'tool',
            callID: p.callId,
            tool: p.name ?? '',
            state: { input: {} },
          }
          applyResult(tool, undefined, p)
          parts.push(tool)
        }
      }
      continue
    }
    const extras = (Array.isArray(m.source?.extras) ? m.source.extras : []) as Extra[]
    const present = new Set(m.parts.map((p) => str(p.meta?.partId)).filter((x) => x !== undefined))
    const anchoredHere = (e: Extra, partId: string | undefined, at: number) =>
      e.before === null ? e.at === at : partId !== undefined && e.before === partId
    for (const [at, part] of m.parts.entries()) {
      const partId = str(part.meta?.partId)
      for (const e of extras) if (anchoredHere(e, partId, at)) parts.push({ ...e.part })
      const out = toPart(part, `prt_${group.msgId}_${n++}`)
      if (!out) continue
      parts.push(out)
      if (part.kind === 'tool_call') {
        toolParts.set(str(out.id) ?? '', { tool: out, call: part })
        if (part.callId !== null) toolParts.set(`call:${part.callId}`, { tool: out, call: part })
      }
    }
    for (const e of extras) {
      const placed =
        e.before === null ? e.at !== undefined && e.at < m.parts.length : present.has(e.before)
      if (!placed) parts.push({ ...e.part })
    }
  }
  return { info, parts }
}

/** Write the conversation back in the opencode shape it came from (export by default). */
export function serialize(conversation: Conversation): string {
  const source = conversation.source ?? {}
  const shape = str(source.shape) ?? 'export'
  const envelope = isObject(source.envelope) ? source.envelope : undefined
  const sessionID = conversation.meta.sessionId
  const msgs = groups(conversation.messages).map((g) => emitGroup(g, sessionID))
  if (shape === 'messages') return JSON.stringify(msgs, null, 2)
  if (shape === 'sqlite') {
    const rows = msgs.map(({ info, parts }, i) => {
      const row = conversation.messages.find(
        (m) => m.source?.msgId === info.id && isObject(m.source?.row),
      )
      const envelopeRow = isObject(row?.source?.row) ? row.source.row : { session_id: sessionID }
      return {
        ...envelopeRow,
        id: info.id ?? `msg_${i}`,
        data: without(info, 'id'),
        parts: parts.map((p) => ({ id: p.id, message_id: info.id, data: without(p, 'id') })),
      }
    })
    return JSON.stringify(
      { ...(envelope ?? { session: { id: sessionID } }), messages: rows },
      null,
      2,
    )
  }
  const info =
    envelope && isObject(envelope.info)
      ? envelope.info
      : { id: sessionID ?? 'ses_export', title: conversation.meta.title }
  return JSON.stringify({ ...(envelope ?? {}), info, messages: msgs }, null, 2)
}
