import type { Conversation, Message } from '../model.ts'
import type { CallInfo, ResultInfo } from '../pairing.ts'
import { flatPart, type Prepared } from './prepared.ts'
import { projectedSource } from './project.ts'
import type { Protections } from './protect.ts'
import type { Decision } from './types.ts'
import type { WorkingView } from './view.ts'

export type InvariantId =
  | 'results_have_calls'
  | 'groups_whole'
  | 'protected_intact'
  | 'newest_result_intact'
  | 'non_empty'
  | 'tokens_match'
  | 'idempotent'

export interface InvariantCheck {
  readonly id: InvariantId
  readonly ok: boolean
  readonly detail: string
  /** Group or message ids that break it (at most 50). */
  readonly offenders: readonly string[]
}

export interface InvariantReport {
  readonly ok: boolean
  readonly checks: readonly InvariantCheck[]
}

const cap = (xs: string[]) => xs.slice(0, 50)

function check(id: InvariantId, offenders: string[], good: string, bad: string): InvariantCheck {
  return {
    id,
    ok: offenders.length === 0,
    detail: offenders.length === 0 ? good : `${bad} (${offenders.length})`,
    offenders: cap(offenders),
  }
}

/**
 * The invariants of SPEC §5, checked after every run on the view and its projection. The
 * idempotence check needs a second run and is added by the caller.
 */
export function checkInvariants(
  view: WorkingView,
  projection: Conversation,
  decisions: readonly Decision[],
  protections: Protections,
): InvariantCheck[] {
  const checks: InvariantCheck[] = [resultsHaveCalls(view)]
  const { check: whole, origin } = groupsWhole(view, projection)
  checks.push(whole, protectedIntact(view, decisions, protections), newestIntact(view, decisions))

  // 5. Projection non-empty.
  const hadMessages = view.limit > 0
  checks.push(
    check(
      'non_empty',
      hadMessages && projection.messages.length === 0 ? ['projection'] : [],
      'the projection is not empty',
      'the projection is empty',
    ),
  )

  // 6. Tokens after = the sum of the projection, recounted from scratch.
  const recount = recountProjection(view, projection, origin)
  checks.push({
    id: 'tokens_match',
    ok: recount === view.totalTokens,
    detail:
      recount === view.totalTokens
        ? `tokens after (${recount}) equal the sum of the projection`
        : `running total ${view.totalTokens} ≠ recount ${recount}`,
    offenders: recount === view.totalTokens ? [] : ['total'],
  })
  return checks
}

const includedIn = (view: WorkingView, m: number) =>
  !view.isExcluded(view.prepared.grouping.groupOfMessage[m] as number)

/**
 * Every result that has a call, as flat rows: result message, result flat part, call flat part
 * (−1 for an address that names no part). Depends only on the prepared conversation, so
 * a re-plan reads four typed arrays instead of two records and two part lookups per result.
 */
interface ResultRows {
  readonly resultMessage: Int32Array
  readonly resultFlat: Int32Array
  readonly callFlat: Int32Array
  /** Group of each row's result and call message. */
  readonly resultGroup: Int32Array
  readonly callGroup: Int32Array
  /** Row → the pairing's result index (for the slow path of an address that names no part). */
  readonly result: Int32Array
}
const resultRows = new WeakMap<Prepared, ResultRows>()

function resultRowsOf(view: WorkingView): ResultRows {
  const p = view.prepared
  const hit = resultRows.get(p)
  if (hit) return hit
  const { pairing, groupOfMessage } = p.grouping
  const index = view.parts
  const rows: number[][] = [[], [], [], [], [], []]
  pairing.results.forEach((r, i) => {
    const c = r.call < 0 ? undefined : pairing.calls[r.call]
    if (!c) return
    const cols = [
      r.message,
      flatPart(index, r.message, r.part),
      flatPart(index, c.message, c.part),
      groupOfMessage[r.message] ?? -1,
      groupOfMessage[c.message] ?? -1,
      i,
    ]
    cols.forEach((v, k) => rows[k]?.push(v))
  })
  const col = (k: number) => Int32Array.from(rows[k] as number[])
  const made: ResultRows = {
    resultMessage: col(0),
    resultFlat: col(1),
    callFlat: col(2),
    resultGroup: col(3),
    callGroup: col(4),
    result: col(5),
  }
  resultRows.set(p, made)
  return made
}

/** 1. No included result without its call. */
function resultsHaveCalls(view: WorkingView): InvariantCheck {
  const { conversation, grouping } = view.prepared
  const { pairing } = grouping
  const rows = resultRowsOf(view)
  const { resultMessage, resultFlat, callFlat, resultGroup, callGroup } = rows
  const limit = view.limit
  const orphaned: string[] = []
  for (let k = 0; k < resultMessage.length; k++) {
    const rm = resultMessage[k] as number
    if (rm >= limit || view.isExcluded(resultGroup[k] as number)) continue
    const rf = resultFlat[k] as number
    const cf = callFlat[k] as number
    if (rf < 0 || cf < 0) {
      // An address outside the conversation: the general lookups (never in practice).
      const r = pairing.results[rows.result[k] as number] as ResultInfo
      const c = pairing.calls[r.call] as CallInfo
      if (view.partAt(r.message, r.part) === null) continue
      if (!includedIn(view, c.message) || view.partAt(c.message, c.part) === null)
        orphaned.push(conversation.messages[rm]?.id ?? `#${rm}`)
      continue
    }
    // A part of the conversation is null only when an override removed it.
    if (view.isRemovedFlat(rf)) continue
    if (view.isExcluded(callGroup[k] as number) || view.isRemovedFlat(cf))
      orphaned.push(conversation.messages[rm]?.id ?? `#${rm}`)
  }
  return check(
    'results_have_calls',
    orphaned,
    'every included result still has its call',
    'results left without their call',
  )
}

/**
 * 2. No group split: a group is either wholly present or wholly excluded. Also returns, per
 * projection position, the first original index with that message's id (the recount reads it).
 */
function groupsWhole(
  view: WorkingView,
  projection: Conversation,
): { check: InvariantCheck; origin: Int32Array } {
  const { conversation, grouping } = view.prepared
  // Presence by id (a copy of a changed message is another object with the same id), marked at
  // the first message carrying that id: the same answer as a set of the projection's ids.
  const { first, byId } = idIndex(view.prepared)
  const present = new Uint8Array(first.length)
  /** Projection position → the first original index with that message's id, or −1. */
  const origin = new Int32Array(projection.messages.length)
  // The projection keeps the original order, so a cursor over the original messages finds most
  // of them (the message itself, or its copy with the same id) without hashing the id; anything
  // else (an inserted summary, a message after a gap) is looked up. Either way `at` is the first
  // index with the message's id.
  const original = conversation.messages
  let j = 0
  for (let k = 0; k < projection.messages.length; k++) {
    const msg = projection.messages[k] as Message
    const next = original[j]
    let at: number | undefined
    if (next !== undefined && (next === msg || next.id === msg.id)) {
      at = first[j] as number
      j++
    } else {
      at = byId.get(msg.id)
      if (at !== undefined && at >= j) j = at + 1
    }
    origin[k] = at ?? -1
    if (at !== undefined) present[at] = 1
  }
  const split: string[] = []
  for (const g of grouping.groups) {
    const visible = view.messagesOf(g.index)
    if (visible.length === 0) continue
    let shown = 0
    for (const m of visible) if (present[first[m] as number] === 1) shown++
    // Only when some are missing: were they emptied by part removal (not a split)?
    const emptied =
      view.isExcluded(g.index) || shown === visible.length
        ? 0
        : visible.filter(
            (m) =>
              view.currentParts(m).length === 0 &&
              (conversation.messages[m]?.parts.length ?? 0) > 0,
          ).length
    if (view.isExcluded(g.index) ? shown > 0 : shown + emptied !== visible.length) split.push(g.id)
  }
  return { check: check('groups_whole', split, 'no group was split', 'groups split'), origin }
}

/** 3. Protected items byte-identical. */
function protectedIntact(
  view: WorkingView,
  decisions: readonly Decision[],
  protections: Protections,
): InvariantCheck {
  const { conversation, grouping } = view.prepared
  const touched: string[] = []
  const { groups: pg, parts: pp } = protections.list()
  for (const [g, kind] of pg) {
    const group = grouping.groups[g]
    if (!group) continue
    if (
      view.isExcluded(g) &&
      !decisions.some(
        (d) =>
          d.kind === 'exclude' &&
          d.groupId === group.id &&
          d.reason === 'token_budget_fallback_strict',
      )
    ) {
      touched.push(group.id)
      continue
    }
    if (kind === 'pending_call' || kind === 'latest_thinking') continue
    for (const m of view.messagesOf(g)) {
      if (!view.hasOverrides(m)) continue
      conversation.messages[m]?.parts.forEach((_, i) => {
        if (view.isModified({ message: m, part: i })) touched.push(`${group.id}:${m}:${i}`)
      })
    }
  }
  for (const key of pp.keys()) {
    const [m, i] = key.split(':').map(Number) as [number, number]
    if (view.isModified({ message: m, part: i }))
      touched.push(`${conversation.messages[m]?.id}:${i}`)
  }
  return check(
    'protected_intact',
    touched,
    'protected items are unchanged',
    'protected items changed',
  )
}

/** 4. The newer result that made another one stale is itself intact. */
function newestIntact(view: WorkingView, decisions: readonly Decision[]): InvariantCheck {
  const included = (m: number) => includedIn(view, m)
  const stale: string[] = []
  for (const d of decisions) {
    if ((d.kind !== 'stub' && d.kind !== 'trim') || !d.newer) continue
    // Only stubs still in the context need their newer copy (a dropped stub points nowhere).
    if (!included(d.target.message)) continue
    if (!included(d.newer.message) || view.isModified(d.newer)) stale.push(d.groupId)
  }
  return check(
    'newest_result_intact',
    stale,
    'the newest result of every superseded resource is intact',
    'superseding results were changed or dropped',
  )
}

/** Message ids of a prepared conversation: the first index of each id, and per message that index. */
interface IdIndex {
  readonly byId: ReadonlyMap<string, number>
  readonly first: Int32Array
}
const idIndexes = new WeakMap<Prepared, IdIndex>()

function idIndex(prepared: Prepared): IdIndex {
  const hit = idIndexes.get(prepared)
  if (hit) return hit
  const { messages } = prepared.conversation
  const byId = new Map<string, number>()
  const first = new Int32Array(messages.length)
  for (let m = 0; m < messages.length; m++) {
    const id = (messages[m] as Message).id
    const at = byId.get(id)
    if (at === undefined) byId.set(id, m)
    first[m] = at ?? m
  }
  const index = { byId, first }
  idIndexes.set(prepared, index)
  return index
}

/**
 * Per original message, what the recount adds for it when it reaches the projection unchanged:
 * framing + the price of each of its parts by object (all prices are whole tokens, so summing
 * ahead of time gives the same total).
 */
const unchangedPrices = new WeakMap<Prepared, Float64Array>()

function unchangedPricesOf(p: Prepared): Float64Array {
  const hit = unchangedPrices.get(p)
  if (hit) return hit
  const { messages } = p.conversation
  const prices = new Float64Array(messages.length)
  for (let i = 0; i < messages.length; i++) {
    let t = p.framing.perMessage
    for (const part of (messages[i] as Message).parts) t += p.partPrice.get(part) as number
    prices[i] = t
  }
  unchangedPrices.set(p, prices)
  return prices
}

function recountProjection(
  view: WorkingView,
  projection: Conversation,
  origin: Int32Array,
): number {
  const p = view.prepared
  const original = p.conversation.messages
  const unchanged = unchangedPricesOf(p)
  let total = p.staticTokens + (projection.system.length > 0 ? p.systemTokens : 0)
  for (let k = 0; k < projection.messages.length; k++) {
    const m = projection.messages[k] as Message
    const at = origin[k] as number
    if (at >= 0 && original[at] === m) {
      total += unchanged[at] as number
      continue
    }
    // A message with no original id is a summary inserted in this run: a new object each run,
    // so keeping its price per object would only fill the memo (thousands per round).
    total += at >= 0 ? changedPrice(view, m) : priceOf(view, m)
  }
  return total
}

/**
 * A projected copy's price under a prepared conversation, kept per copy: project() hands back the
 * same copy object while its parts are the same objects, and each part's price below is a pure
 * function of the part, the message's role and model and the prepared counter and framing.
 */
const changedPrices = new WeakMap<
  Message,
  { readonly prepared: Prepared; readonly tokens: number }
>()

function changedPrice(view: WorkingView, m: Message): number {
  const p = view.prepared
  const hit = changedPrices.get(m)
  if (hit && hit.prepared === p) return hit.tokens
  const total = priceOf(view, m)
  changedPrices.set(m, { prepared: p, tokens: total })
  return total
}

/** A projected message's price: framing + each part's (see {@link changedPrice}). */
function priceOf(view: WorkingView, m: Message): number {
  const p = view.prepared
  let total = p.framing.perMessage
  for (const part of m.parts) {
    // Untouched parts are the prepared objects: their price is known. Replacements and inserted
    // summaries are priced anew through the view's price memo (same content, role and model:
    // same price); a projected copy by the content it was made from (only `meta` differs, and
    // meta costs nothing).
    const known = p.partPrice.get(part)
    if (known !== undefined) {
      total += known
      continue
    }
    total += view.price(projectedSource(part) ?? part, m.role, m.model)
  }
  return total
}
