/**
 * Reading the conversation for the strategy: every visible tool result that has a call (orphans
 * have no identity and are skipped), in conversation order, with its identity under both modes,
 * and LIP's own size estimate for the token threshold.
 */
import type { StrategyContext } from '../../compaction/context.ts'
import { liveGroups } from '../../compaction/live-groups.ts'
import type { Group } from '../../groups.ts'
import type { ToolCallPart, ToolResultPart } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import { identitiesOf } from './call-identities.ts'
import type { ToolCategory } from './categories.ts'
import type { ResourceIdentity } from './identity.ts'
import type { Occurrence } from './plan.ts'
import { sessionLinks } from './sessions.ts'
import { redoSince } from './redo.ts'
import { attachmentBytes, codePointLength, flattenText, utf8Bytes } from './stub.ts'
import { isPinned, newLog, registerVersion, type CollectionLog } from './collection-log.ts'
import { withFields } from '../../objects.ts'
import { sharedStrings } from './shared-strings.ts'

export interface ResultInfo {
  readonly ref: PartRef
  readonly group: number
  readonly messageId: string
  /** Id of the message that holds the call (where a write happened). */
  readonly callMessageId: string
  readonly tool: string
  readonly part: ToolResultPart
  readonly text: string
  readonly bytes: { readonly faithful: number; readonly fixed: number }
  readonly hasAttachments: boolean
  readonly faithful: Occurrence
  readonly fixed: Occurrence
}

export function collectResults(
  ctx: StrategyContext,
  isStub: (text: string) => boolean,
): readonly ResultInfo[] {
  const { pairing, view } = ctx
  const messages = ctx.conversation.messages
  const cwd = ctx.conversation.meta.cwd
  const { offset } = view.parts
  const cache = resultCache(view.prepared, offset[offset.length - 1] as number)
  const links = sessionLinks(ctx.conversation, pairing)
  const share = sharedStrings(ctx.conversation)
  const { resultAt } = view.parts
  const { groupOfMessage } = view.prepared.grouping
  /** The result at flat part `k` if it is collected: visible group, a call, still a result. */
  const collectable = (k: number) => {
    const r = resultAt[k] as number
    const info = r >= 0 ? pairing.results[r] : undefined
    if (!info || info.call < 0) return null
    const g = groupOfMessage[info.message] as number
    if (view.isExcluded(g)) return null
    const c = pairing.calls[info.call]
    const call = c ? messages[c.message]?.parts[c.part] : undefined
    if (call?.kind !== 'tool_call') return null
    if (view.part(info)?.kind !== 'tool_result') return null
    return { g, message: info.message, call: info.call }
  }
  // Replay: when the view only had parts replaced or groups dropped since the last collection over
  // it, the records before the first dropped one stand, those of the replaced messages are redone
  // in place, and the rest is collected from there on (their parts come after all others).
  const lasts = lastCollections(view, isStub)
  // A view nothing has changed yet (no part replaced, no group dropped, no rollback) collects
  // exactly what the last such view over the same conversation and limit collected: a re-plan
  // (every config edit) starts from one, and its first supersede step takes those records whole.
  const untouched = view.changeMark === 0
  const pristine = untouched ? pristineCollection(view.prepared, isStub) : undefined
  if (pristine?.out && pristine.limit === view.limit && !lasts.last) {
    // Shared with other views: this view's log starts at it, but it is not registered (below).
    lasts.last = {
      out: pristine.out,
      own: null,
      limit: view.limit,
      mark: 0,
      log: newLog(),
      version: 0,
    }
    return pristine.out
  }
  const last = lasts.last
  const redo = last ? redoSince(view, last, collectable) : null
  const incremental = last !== undefined && redo !== null
  // Flat part numbers order parts by (message, part): collect them, sort only if needed.
  const keys: number[] = []
  const groupOf: number[] = []
  const messageOf: number[] = []
  const callOf: number[] = []
  let sorted = true
  if (incremental) {
    const end = offset[view.limit] as number
    // From the first record collected again (see `redoSince`), else from the newly revealed parts.
    const again = last.out[redo.cut]?.ref
    const start = again
      ? (offset[again.message] as number) + again.part
      : (offset[last.limit] as number)
    for (let k = start; k < end; k++) {
      const found = collectable(k)
      if (!found) continue
      keys.push(k)
      groupOf.push(found.g)
      messageOf.push(found.message)
      callOf.push(found.call)
    }
  } else {
    // The live groups only: late in a replay nearly every group is excluded, and walking them all
    // at every call was quadratic in the session (see `liveGroups`).
    const { groups } = view.prepared.grouping
    for (const gi of liveGroups(view)) {
      const g = groups[gi] as Group
      for (const r of g.results) {
        const info = pairing.results[r]
        if (!info || !ctx.visible(info.message) || info.call < 0) continue
        const c = pairing.calls[info.call]
        const call = c ? messages[c.message]?.parts[c.part] : undefined
        if (call?.kind !== 'tool_call') continue
        const k = (offset[info.message] as number) + info.part
        if (view.part(info)?.kind !== 'tool_result') continue
        if (keys.length > 0 && (keys[keys.length - 1] as number) > k) sorted = false
        keys.push(k)
        groupOf.push(g.index)
        messageOf.push(info.message)
        callOf.push(info.call)
      }
    }
  }
  if (incremental && keys.length === 0 && redo.redo.length === 0 && redo.cut === last.out.length) {
    // The very same records: a caller may keep what it derived from this array.
    lasts.last = withFields(last, { limit: view.limit, mark: view.changeMark })
    return last.out
  }
  let order: number[] | null = null
  if (!sorted) {
    order = keys.map((_, i) => i)
    order.sort((a, b) => (keys[a] as number) - (keys[b] as number))
  }

  const build = (index: number, k: number, group: number, message: number, callIndex: number) => {
    const kept = cache.records[k]
    const ref = kept?.[0]?.info.ref ?? { message, part: k - (offset[message] as number) }
    const part = view.part(ref) as ToolResultPart
    const modified = view.isCompacted(ref)
    const m = measuredAt(cache.measures, k, part)
    const tokens = m.hasAttachments ? view.partTokens(ref) : m.lipMeasure
    const state = isStub(m.text) ? 'stub' : modified ? 'modified' : 'fresh'
    // A result unchanged since a run over this conversation (replay, a re-plan, one with another
    // stub template that reads it the same) keeps its record.
    if (kept)
      for (const cached of kept)
        if (
          cached.info.part === part &&
          cached.modified === modified &&
          cached.info.group === group &&
          cached.info.fixed.index === index &&
          cached.info.fixed.measure === tokens &&
          cached.info.fixed.state === state
        )
          return cached.info
    const c = pairing.calls[callIndex]
    const call = (c ? messages[c.message]?.parts[c.part] : undefined) as ToolCallPart
    const id = identitiesOf(call, cwd, share, links.get(call))
    const tool = share(call.name)
    const info: ResultInfo = {
      ref,
      group,
      messageId: messages[ref.message]?.id ?? `#${ref.message}`,
      callMessageId: c ? (messages[c.message]?.id ?? `#${c.message}`) : '?',
      tool,
      part,
      text: m.text,
      bytes: { faithful: m.bytes, fixed: m.bytes + m.extra },
      hasAttachments: m.hasAttachments,
      faithful: occurrence(index, group, tool, id.fCat, id.faithful, state, m.text, m.lipMeasure),
      // Fixed: attachments count by the engine's price (LIP's len//4 sees only the text).
      fixed: occurrence(index, group, tool, id.xCat, id.fixed, state, m.text, tokens),
    }
    if (!kept) cache.records[k] = [{ info, modified }]
    else {
      if (kept.length >= STATES_KEPT) kept.shift()
      kept.push({ info, modified })
    }
    return info
  }

  // Replay: the view's own last collection is brought up to date in place (a copy per call was
  // proportional to every result before: quadratic over a replay); one anything else holds or
  // keys on is copied.
  let out: ResultInfo[] = []
  let log = newLog()
  if (incremental) {
    const own = last.own && !isPinned(last.own) ? last.own : null
    if (own) own.length = redo.cut
    out = own ?? last.out.slice(0, redo.cut)
    for (const { index, k, call } of redo.redo) {
      const was = out[index] as ResultInfo
      out[index] = build(index, k, was.group, was.ref.message, call)
    }
    log = last.log
    log.edits.push({ redone: redo.redo.map((x) => x.index), cut: redo.cut })
  }
  const base = out.length
  for (let index = base; index < base + keys.length; index++) {
    const at = order ? (order[index - base] as number) : index - base
    out.push(
      build(
        index,
        keys[at] as number,
        groupOf[at] as number,
        messageOf[at] as number,
        callOf[at] as number,
      ),
    )
  }
  // An untouched view collected afresh (a new stub template) usually finds the very records of
  // the last untouched collection with another: it takes that array, and with it the plans kept
  // on it (shared.ts), which do not depend on the template.
  const made = pristine && !incremental ? sameAsLastPristine(view.prepared, out) : out
  const version = log.edits.length
  // Only an array made here is registered: one taken from the last pristine collection may be
  // registered already (with another view's log).
  if (made === out) registerVersion(out, { log, version })
  lasts.last = {
    out: made,
    // Shared as the pristine collection: other views take it (and key plans on it).
    own: pristine ? null : out,
    limit: view.limit,
    mark: view.changeMark,
    log,
    version,
  }
  if (pristine) {
    pristine.out = made
    pristine.limit = view.limit
  }
  return made
}

/** The last untouched collection over a prepared conversation, whatever the stub template. */
const lastPristine = new WeakMap<object, readonly ResultInfo[]>()
function sameAsLastPristine(prepared: object, out: readonly ResultInfo[]): readonly ResultInfo[] {
  const other = lastPristine.get(prepared)
  if (other?.length === out.length && out.every((r, i) => r === other[i])) return other
  lastPristine.set(prepared, out)
  return out
}

/** The last collection over a view with a stub matcher: its records, limit and change mark. */
interface LastCollection {
  last:
    | {
        readonly out: readonly ResultInfo[]
        /** `out` when this view made it and shares it with no other: changed in place. */
        readonly own: ResultInfo[] | null
        readonly limit: number
        readonly mark: number
        /** The view's log (per stub matcher) and the version of `out` in it. */
        readonly log: CollectionLog
        readonly version: number
      }
    | undefined
}
const lastByView = new WeakMap<object, WeakMap<object, LastCollection>>()
function lastCollections(view: object, isStub: object): LastCollection {
  let byMatcher = lastByView.get(view)
  if (!byMatcher) {
    byMatcher = new WeakMap()
    lastByView.set(view, byMatcher)
  }
  let made = byMatcher.get(isStub)
  if (!made) {
    made = { last: undefined }
    byMatcher.set(isStub, made)
  }
  return made
}

/** The last collection over an untouched view of a prepared conversation, per stub matcher. */
interface PristineCollection {
  out: readonly ResultInfo[] | undefined
  limit: number
}
const pristineCollections = new WeakMap<object, WeakMap<object, PristineCollection>>()
function pristineCollection(prepared: object, isStub: object): PristineCollection {
  let byMatcher = pristineCollections.get(prepared)
  if (!byMatcher) {
    byMatcher = new WeakMap()
    pristineCollections.set(prepared, byMatcher)
  }
  let made = byMatcher.get(isStub)
  if (!made) {
    made = { out: undefined, limit: -1 }
    byMatcher.set(isStub, made)
  }
  return made
}

/**
 * Records of earlier runs over the same prepared conversation, per flat part: replay runs the
 * strategy at every model call on one view, and a re-plan (every config edit) on a fresh view over
 * the same conversation; most results are unchanged between them. A record is reused only when
 * everything it was made from is the same (see `build`; the stub template only through the state
 * it reads), so views and templates may share them. A few records per part: a replay sees a result
 * fresh, then stubbed (the stub part is one object per original), and the next replay (the bench,
 * a replay after a config edit) again; with one record per part each state rebuilt the other's.
 */
interface ResultCache {
  readonly records: ({ readonly info: ResultInfo; readonly modified: boolean }[] | undefined)[]
  readonly measures: ResultMeasures[]
}
const STATES_KEPT = 3
// By flat part number in a plain array, not a map: a replay's firing redoes thousands of records,
// and on a long session each hashed lookup was a cache miss (issue 14).
const resultCaches = new WeakMap<object, ResultCache>()
function resultCache(prepared: object, parts: number): ResultCache {
  let cache = resultCaches.get(prepared)
  if (!cache) {
    cache = { records: new Array(parts), measures: new Array(parts) }
    resultCaches.set(prepared, cache)
  }
  return cache
}

// A plain function, not a closure per result: this runs for every result on every re-plan.
function occurrence(
  index: number,
  group: number,
  tool: string,
  category: ToolCategory,
  identity: ResourceIdentity | null,
  state: Occurrence['state'],
  text: string,
  measure: number,
): Occurrence {
  return { index, group, tool, category, identity, state, empty: text === '', measure }
}

interface ResultMeasures {
  /** The part these are of. */
  readonly of: ToolResultPart
  readonly text: string
  readonly bytes: number
  readonly extra: number
  readonly hasAttachments: boolean
  readonly lipMeasure: number
}

// Parts are immutable, so what is derived from one is cached on the object: re-planning (every
// config edit, every replay point) then costs a lookup per result instead of a scan of its text.
const resultMeasures = new WeakMap<ToolResultPart, ResultMeasures>()

/**
 * The measures of the part now at flat part `k`: the last ones asked for there are kept by `k`, so
 * a record redone at a firing finds them without a lookup keyed by the part object.
 */
function measuredAt(slots: ResultMeasures[], k: number, part: ToolResultPart): ResultMeasures {
  let m = slots[k]
  if (m?.of !== part) {
    m = measureResult(part)
    slots[k] = m
  }
  return m
}

function measureResult(part: ToolResultPart): ResultMeasures {
  let m = resultMeasures.get(part)
  if (!m) {
    const text = flattenText(part.content)
    m = {
      of: part,
      text,
      bytes: utf8Bytes(text),
      extra: attachmentBytes(part.content),
      hasAttachments: part.content.some((c) => c.kind !== 'text'),
      lipMeasure: Math.floor(codePointLength(text) / 4),
    }
    resultMeasures.set(part, m)
  }
  return m
}
