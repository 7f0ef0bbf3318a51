import type { Conversation, Message, Part, ToolCallPart } from '../../engine/model.ts'
import { isObject, str } from '../util.ts'
import { actionText } from './text-actions.ts'

type Obj = Record<string, unknown>

/** Canonical parts → history `content` in the form the source used (string or blocks). */
function content(parts: readonly Part[], form: unknown): unknown {
  const usable = parts.filter((p) => p.kind === 'text' || p.kind === 'image' || p.kind === 'opaque')
  if (form === 'blocks') {
    return usable.map((p) => {
      if (isObject(p.meta?.block)) {
        const block = { ...p.meta.block }
        if (p.kind === 'text') block.text = p.text
        return block
      }
      if (p.kind === 'text') return { type: 'text', text: p.text }
      if (p.kind === 'image') {
        const url =
          p.data !== undefined ? `data:${p.mediaType ?? ''};base64,${p.data}` : (p.url ?? '')
        return { type: 'image_url', image_url: { url } }
      }
      return p.raw
    })
  }
  if (form === 'none' && usable.length === 0) return undefined
  // A command read from the reply's text goes back where it was, as the text it was.
  return parts
    .map((p) =>
      p.kind === 'text'
        ? p.text
        : p.kind === 'tool_call' && p.derivedFrom === 'text'
          ? actionText(p)
          : '',
    )
    .join('')
}

/** An observation read as a tool result goes back as the user message it was. */
function observationItem(m: Message, base: Obj): Obj {
  const out: Obj = { ...base }
  const source = isObject(m.source?.item) ? m.source.item : {}
  out.role = typeof source.role === 'string' ? source.role : 'user'
  const results = m.parts.filter((p) => p.kind === 'tool_result')
  const c = content(
    results.flatMap((r) => r.content),
    m.source?.contentForm,
  )
  if (c !== undefined) out.content = c
  return out
}

function toolCall(part: ToolCallPart): Obj {
  return {
    function: { arguments: part.argsRaw, name: part.name },
    id: part.callId,
    type: part.callType ?? 'function',
  }
}

function historyItems(m: Message): Obj[] {
  const base: Obj = isObject(m.source?.item) ? { ...m.source.item } : { role: m.role }
  base.role = m.role
  const form = m.source?.contentForm
  if (
    m.role === 'tool' &&
    m.parts.some((p) => p.kind === 'tool_result' && p.derivedFrom === 'text')
  )
    return [observationItem(m, base)]
  if (m.role === 'tool') {
    // One observation answered several ids: write it once with every id (the parser repeats it).
    const results = m.parts.filter((p) => p.kind === 'tool_result')
    const groups: { ids: (string | null)[]; parts: readonly Part[] }[] = []
    for (const r of results) {
      const last = groups[groups.length - 1]
      if (last && r.meta?.sharedContent === true) last.ids.push(r.callId)
      else groups.push({ ids: [r.callId], parts: r.content })
    }
    return groups.map((g) => {
      const out: Obj = { ...base }
      const c = content(g.parts, form)
      if (c !== undefined) out.content = c
      const ids = g.ids.filter((id) => id !== null)
      if ('tool_call_id' in base && g.ids.length === 1 && m.source?.idsArray !== true) {
        out.tool_call_id = g.ids[0]
      } else if (m.source?.idsArray === true) {
        // Every entry, unusable ones as null: one observation per id comes back on re-import.
        out.tool_call_ids = g.ids
      } else if (ids.length > 0) out.tool_call_ids = ids
      return out
    })
  }
  const out: Obj = { ...base }
  const c = content(m.parts, form)
  if (c !== undefined) out.content = c
  const calls = m.parts.filter(
    (p): p is ToolCallPart => p.kind === 'tool_call' && p.derivedFrom !== 'text',
  )
  if (calls.length > 0) out.tool_calls = calls.map(toolCall)
  return [out]
}

/** Write the trajectory back: the envelope (trajectory, info, environment…) plus the history. */
export function serialize(conversation: Conversation): string {
  const source = conversation.source ?? {}
  const key = str(source.key) ?? 'history'
  const top = isObject(source.top) ? source.top : { trajectory: [], info: {} }
  const history = conversation.messages.flatMap(historyItems)
  // Keep the original key order: history sits where it was (after trajectory in .traj files).
  const out: Obj = {}
  let placed = false
  for (const [k, v] of Object.entries(top)) {
    out[k] = v
    if (k === 'trajectory' && !placed) {
      out[key] = history
      placed = true
    }
  }
  if (!placed) out[key] = history
  return JSON.stringify(out, null, 2)
}
