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
    // A message without overrides projects to itself (no part walk, no copy).
    if (!view.isExcluded(g) && !view.hasOverrides(m)) messages.push(msg)
    else if (!view.isExcluded(g)) {
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
    const compactedBy = [...earlierBy, ...o.by]
    const supersededBy = earlierNewer.length + newer.length > 0 ? [...earlierNewer, ...newer] : null
    const made = reuse(o.part, compactedBy, supersededBy)
    if (made) {
      out.push(made)
      return
    }
    const meta = {
      ...o.part.meta,
      compactedBy,
      ...(supersededBy ? { supersededBy } : {}),
    }
    const part = { ...o.part, meta } as Part
    projectedCache.set(o.part, { compactedBy, supersededBy, part })
    projectedFrom.set(part, o.part)
    out.push(part)
  })
  return out
}

/**
 * The last projected copy of each replacement part: re-plans and rounds over the same replacement
 * (strategies memoise them) with the same marks get the same object back, so nothing is
 * re-allocated and its price is found by identity.
 */
const projectedCache = new WeakMap<
  Part,
  { compactedBy: readonly string[]; supersededBy: readonly unknown[] | null; part: Part }
>()
/** Projected copy → the replacement it was made from (same content, only `meta` differs). */
const projectedFrom = new WeakMap<Part, Part>()

/** The replacement a projected part was made from, or undefined for a part project() did not make. */
export function projectedSource(part: Part): Part | undefined {
  return projectedFrom.get(part)
}

function reuse(
  part: Part,
  compactedBy: readonly string[],
  supersededBy: readonly unknown[] | null,
): Part | undefined {
  const hit = projectedCache.get(part)
  if (!hit || !sameStrings(hit.compactedBy, compactedBy)) return undefined
  if (hit.supersededBy === null || supersededBy === null)
    return hit.supersededBy === supersededBy ? hit.part : undefined
  if (hit.supersededBy.length !== supersededBy.length) return undefined
  for (let i = 0; i < supersededBy.length; i++)
    if (!sameRef(hit.supersededBy[i], supersededBy[i])) return undefined
  return hit.part
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Entries of `supersededBy`: `{messageId, part}` objects (or whatever an import carried). */
function sameRef(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const kx = Object.keys(x)
  const ky = Object.keys(y)
  return kx.length === ky.length && kx.every((k, i) => ky[i] === k && x[k] === y[k])
}
