import type { Conversation, Message, Part, UpstreamMarker } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import type { InsertedSummary, Override, WorkingView } from './view.ts'
import { mapItems, sameItems } from '../arrays.ts'
import { withConversation, withFields, withParts } from '../objects.ts'

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

  const memo = memoOf(view)
  const messages: Message[] = []
  /** original index → index in the projection of the first message at or after it */
  const newIndex = new Array<number>(view.limit + 1)
  // Most rounds insert no summary: then no message needs the two lookups.
  const placed = before.size + after.size > 0
  for (let m = 0; m < view.limit; m++) {
    if (placed) for (const s of before.get(m) ?? []) messages.push(s.message)
    newIndex[m] = messages.length
    const msg = conversation.messages[m] as Message
    const g = grouping.groupOfMessage[m] as number
    // A message without overrides projects to itself (no part walk, no copy).
    if (!view.isExcluded(g) && !view.hasOverrides(m)) messages.push(msg)
    else if (!view.isExcluded(g)) {
      // The copy made last time, when every part projects to the same object again (re-plans
      // and rounds mostly change the same parts the same way): no parts array to build.
      const last = memo.message[m] ?? projectedMessages.get(msg)
      if (last && projectsTo(view, memo, m, msg, last.parts)) messages.push(last)
      else {
        const parts = projectedParts(view, memo, m)
        if (parts.length > 0 || msg.parts.length === 0) {
          const out = sameItems(parts, msg.parts) ? msg : copyWith(msg, parts)
          if (out !== msg) memo.message[m] = out
          messages.push(out)
        }
      }
    }
    if (placed) for (const s of after.get(m) ?? []) messages.push(s.message)
  }
  newIndex[view.limit] = messages.length

  const systemGroup = grouping.groups.find((g) => g.kind === 'system' && g.messages.length === 0)
  const systemDropped = systemGroup ? view.isExcluded(systemGroup.index) : false
  const markers: UpstreamMarker[] = mapItems(
    conversation.markers.filter((mk) => mk.beforeIndex <= view.limit),
    (mk) => withFields(mk, { beforeIndex: newIndex[mk.beforeIndex] ?? messages.length }),
  )

  return withConversation(conversation, {
    system: systemDropped ? [] : conversation.system,
    messages,
    markers,
  })
}

/**
 * A message's parts as projected. Replaced parts carry `meta.compactedBy` (and the newer copies a
 * stub defers to in `meta.supersededBy`), so a later run on the projection — or a re-imported
 * export — knows they are not originals: that is what makes a second run change nothing.
 */
function projectedParts(view: WorkingView, memo: ProjectionMemo, message: number): Part[] {
  const msg = view.prepared.conversation.messages[message] as Message
  const out: Part[] = []
  for (let i = 0; i < msg.parts.length; i++) {
    const part = projectedPart(view, memo, message, msg, i)
    if (part) out.push(part)
  }
  return out
}

/**
 * Do the message's parts project to exactly `parts` (the same objects, removed parts dropped)?
 * A copy made by {@link copyWith} always differs from the original message, so a match means the
 * projection would make that copy again ({@link copyWith} returns it).
 */
function projectsTo(
  view: WorkingView,
  memo: ProjectionMemo,
  message: number,
  msg: Message,
  parts: readonly Part[],
): boolean {
  let k = 0
  for (let i = 0; i < msg.parts.length; i++) {
    const part = projectedPart(view, memo, message, msg, i)
    if (!part) continue
    if (parts[k] !== part) return false
    k++
  }
  return k === parts.length
}

/** Part `i` of a message as projected, or null when an override removed it. */
function projectedPart(
  view: WorkingView,
  memo: ProjectionMemo,
  message: number,
  msg: Message,
  i: number,
): Part | null {
  const { conversation } = view.prepared
  const original = msg.parts[i] as Part
  const o = view.overrideAt(message, i)
  if (!o) return original
  if (!o.part) return null
  // The copy made for this part last time, when made from the same replacement with the same
  // marks (the same strategies, the same newer copies).
  const flat = (view.parts.offset[message] as number) + i
  const sameMarks = sameItems(memo.by[flat], o.by) && sameRefs(memo.newer[flat], o.newer)
  if (sameMarks && memo.source[flat] === o.part) return memo.part[flat] as Part
  // A new replacement with the same marks (an edit of a step's own numbers re-makes every
  // trimmed part): the marks made last time for this part are the same values, so they are
  // shared rather than re-built (thousands of arrays and records per edit).
  const marks = (sameMarks ? memo.marks[flat] : undefined) ?? marksOf(conversation, original, o)
  const made = markedCopy(original, o, o.part, marks)
  memo.source[flat] = o.part
  memo.by[flat] = o.by
  memo.newer[flat] = o.newer
  memo.marks[flat] = marks
  memo.part[flat] = made
  return made
}

/**
 * What a projection makes for one replaced part of a prepared conversation, last time, by
 * message index and flat part number: arrays read in order, where the per-object memos below
 * (kept for copies made under another prepared conversation) cost a hashed lookup per part and
 * per message of every round — thousands when a step rewrites every older result.
 */
interface ProjectionMemo {
  readonly message: (Message | undefined)[]
  readonly part: (Part | undefined)[]
  readonly source: (Part | undefined)[]
  readonly by: (readonly string[] | undefined)[]
  readonly newer: (readonly PartRef[] | undefined)[]
  readonly marks: (Marks | undefined)[]
}

const memos = new WeakMap<object, ProjectionMemo>()

function memoOf(view: WorkingView): ProjectionMemo {
  const hit = memos.get(view.prepared)
  if (hit) return hit
  const parts = view.parts.offset[view.parts.offset.length - 1] as number
  const made: ProjectionMemo = {
    message: new Array<Message | undefined>(view.prepared.conversation.messages.length),
    part: new Array<Part | undefined>(parts),
    source: new Array<Part | undefined>(parts),
    by: new Array<readonly string[] | undefined>(parts),
    newer: new Array<readonly PartRef[] | undefined>(parts),
    marks: new Array<Marks | undefined>(parts),
  }
  memos.set(view.prepared, made)
  return made
}

/** Do the two lists name the same parts, in order? */
function sameRefs(a: readonly PartRef[] | undefined, b: readonly PartRef[]): boolean {
  if (a === b) return true
  if (!a || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as PartRef
    const y = b[i] as PartRef
    if (x.message !== y.message || x.part !== y.part) return false
  }
  return true
}

/**
 * The marks a replaced part carries (see {@link projectedParts}): its own earlier marks, then the
 * strategies that changed it and the ids of the newer copies it defers to. Only read once made.
 */
interface Marks {
  readonly compactedBy: readonly string[]
  /** Undefined when there is nothing to defer to (no `supersededBy` key at all). */
  readonly supersededBy: readonly unknown[] | undefined
  /** The override's newer parts by message id, as the cache below compares them. */
  readonly newer: readonly { readonly messageId: string; readonly part: number }[]
}

function marksOf(conversation: Conversation, original: Part, o: Override): Marks {
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
  return {
    compactedBy: [...earlierBy, ...o.by],
    supersededBy: earlierNewer.length + newer.length > 0 ? [...earlierNewer, ...newer] : undefined,
    newer,
  }
}

/** `replacement` (the override's part) marked as compacted (see {@link projectedParts}). */
function markedCopy(original: Part, o: Override, replacement: Part, marks: Marks): Part {
  const hit = projectedCache.get(replacement)
  if (hit && hit.original === original && sameMarks(hit, o, marks)) return hit.part
  // Key for key what `{ ...meta, compactedBy, ...(deferred ? { supersededBy } : {}) }` makes.
  const meta: Record<string, unknown> = withFields(replacement.meta ?? {}, {
    compactedBy: marks.compactedBy,
  })
  if (marks.supersededBy) meta.supersededBy = marks.supersededBy
  const part = withFields(replacement, { meta }) as Part
  projectedCache.set(replacement, { original, by: o.by, newer: marks.newer, part })
  projectedFrom.set(part, replacement)
  return part
}

/**
 * The last projected copy of each replacement part, with what its marks were made from: the part
 * it replaced (its own earlier marks), the strategies that changed it and the ids of the newer
 * copies it defers to. Re-plans and rounds that replace the same part the same way get the same
 * object back — nothing re-allocated, and its price is found by identity.
 */
const projectedCache = new WeakMap<
  Part,
  {
    readonly original: Part
    readonly by: readonly string[]
    readonly newer: readonly { readonly messageId: string; readonly part: number }[]
    readonly part: Part
  }
>()

function sameMarks(
  hit: {
    readonly by: readonly string[]
    readonly newer: readonly { messageId: string; part: number }[]
  },
  o: Override,
  marks: Marks,
): boolean {
  if (hit.by.length !== o.by.length || hit.newer.length !== marks.newer.length) return false
  for (let i = 0; i < o.by.length; i++) if (hit.by[i] !== o.by[i]) return false
  for (let i = 0; i < marks.newer.length; i++) {
    const r = marks.newer[i] as { messageId: string; part: number }
    const h = hit.newer[i] as { messageId: string; part: number }
    if (h.part !== r.part || h.messageId !== r.messageId) return false
  }
  return true
}

/** The last projected copy of each changed message, with its parts. */
const projectedMessages = new WeakMap<Message, Message>()

/** `{ ...msg, parts }`, the same object as last time when the parts are the same objects. */
function copyWith(msg: Message, parts: Part[]): Message {
  const hit = projectedMessages.get(msg)
  if (hit && sameItems(hit.parts, parts)) return hit
  // Not a leading spread: the importers' own message literal (see objects.ts).
  const made = withParts(msg, parts)
  projectedMessages.set(msg, made)
  return made
}

/** Projected copy → the replacement it was made from (same content, only `meta` differs). */
const projectedFrom = new WeakMap<Part, Part>()

/** The replacement a projected part was made from, or undefined for a part project() did not make. */
export function projectedSource(part: Part): Part | undefined {
  return projectedFrom.get(part)
}
