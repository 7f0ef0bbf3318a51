import type { Conversation, Message, Part, UpstreamMarker } from '../model.ts'
import type { InsertedSummary, WorkingView } from './view.ts'

/**
 * What the model would receive (SPEC §5): visible messages of included groups, with replaced
 * parts applied and removed parts dropped, inserted summaries placed next to their anchor group.
 * A message whose every part was removed is dropped. The original conversation is not touched.
 */
export function project(view: WorkingView): Conversation {
  const { conversation, grouping } = view.prepared
  const before = new Map<number, InsertedSummary[]>()
  const after = new Map<number, InsertedSummary[]>()
  for (const s of view.summaries()) {
    const group = grouping.groups[s.anchor]
    const visible = group ? view.messagesOf(group.index) : []
    const at = s.position === 'before' ? (visible[0] ?? 0) : (visible[visible.length - 1] ?? 0)
    const map = s.position === 'before' ? before : after
    map.set(at, [...(map.get(at) ?? []), s])
  }

  const messages: Message[] = []
  /** original index → index in the projection of the first message at or after it */
  const newIndex = new Array<number>(view.limit + 1)
  for (let m = 0; m < view.limit; m++) {
    for (const s of before.get(m) ?? []) messages.push(s.message)
    newIndex[m] = messages.length
    const msg = conversation.messages[m] as Message
    const g = grouping.groupOfMessage[m] as number
    if (!view.isExcluded(g)) {
      const parts = projectedParts(view, m)
      const changed = parts.length !== msg.parts.length || parts.some((p, i) => p !== msg.parts[i])
      if (parts.length > 0 || msg.parts.length === 0)
        messages.push(changed ? { ...msg, parts } : msg)
    }
    for (const s of after.get(m) ?? []) messages.push(s.message)
  }
  newIndex[view.limit] = messages.length

  const systemGroup = grouping.groups.find((g) => g.kind === 'system' && g.messages.length === 0)
  const systemDropped = systemGroup ? view.isExcluded(systemGroup.index) : false
  const markers: UpstreamMarker[] = conversation.markers
    .filter((mk) => mk.beforeIndex <= view.limit)
    .map((mk) => ({ ...mk, beforeIndex: newIndex[mk.beforeIndex] ?? messages.length }))

  return {
    ...conversation,
    system: systemDropped ? [] : conversation.system,
    messages,
    markers,
  }
}

/**
 * A message's parts as projected. Replaced parts carry `meta.compactedBy` (and the newer copies a
 * stub defers to in `meta.supersededBy`), so a later run on the projection — or a re-imported
 * export — knows they are not originals: that is what makes a second run change nothing.
 */
function projectedParts(view: WorkingView, message: number): Part[] {
  const { conversation } = view.prepared
  const msg = conversation.messages[message] as Message
  const out: Part[] = []
  msg.parts.forEach((original, i) => {
    const o = view.override({ message, part: i })
    if (!o) {
      out.push(original)
      return
    }
    if (!o.part) return
    const earlierBy = Array.isArray(original.meta?.compactedBy)
      ? (original.meta.compactedBy as string[])
      : []
    const earlierNewer = Array.isArray(original.meta?.supersededBy)
      ? (original.meta.supersededBy as unknown[])
      : []
    const newer = o.newer.map((r) => ({
      messageId: conversation.messages[r.message]?.id ?? '',
      part: r.part,
    }))
    const meta = {
      ...o.part.meta,
      compactedBy: [...earlierBy, ...o.by],
      ...(earlierNewer.length + newer.length > 0
        ? { supersededBy: [...earlierNewer, ...newer] }
        : {}),
    }
    out.push({ ...o.part, meta } as Part)
  })
  return out
}
