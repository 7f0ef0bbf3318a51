/**
 * Protections over the whole conversation, from tables per prepared conversation.
 *
 * Every edit in the app hands the engine a new config object, so answers cached per protection
 * config were made again at every re-plan: a walk of every group (context, pending calls) and
 * every call, about 15 ms on the bench's 10,000 messages. What those walks find depends only on
 * the prepared conversation, so it is kept per prepared conversation, and a config only combines
 * the tables — the same answers, in the same order of precedence, as `onDemand` in protect.ts.
 */
import type { Pairing, PartRef } from '../pairing.ts'
import { flatPart, partKey, type PartIndex, type Prepared } from './prepared.ts'
import type { Protections } from './protect.ts'
import type { ProtectionConfig, ProtectionKind } from './types.ts'
import type { WorkingView } from './view.ts'

/** What a config may be asked about, found once per prepared conversation (every message visible). */
interface WholeTables {
  readonly visibleCount: number
  readonly lastTurn: number
  /** Per group: outside the last call's context (another thread, upstream-compacted history). */
  readonly outOfContext: Uint8Array
  /** Per group: an upstream compaction restarted the context there. */
  readonly upstream: Uint8Array
  /** Per group: holds a call with no result (not run by the provider). */
  readonly pendingGroup: Uint8Array
  /** Pending calls' [message, part], in call order. */
  readonly pendingParts: readonly (readonly [number, number])[]
  /** The latest assistant message, and its group when it carries thinking (else -1). */
  readonly latestAssistant: number
  readonly thinkingGroup: number
  /** Reasoning parts of the latest assistant message. */
  readonly thinkingParts: readonly number[]
}

/** Call `c`: visible below `limit`, not run by the provider, and with no visible result yet. */
export function isPendingCall(pairing: Pairing, limit: number, c: number): boolean {
  const info = pairing.calls[c]
  if (!info || info.message >= limit || info.status === 'server') return false
  for (const r of info.results) if ((pairing.results[r]?.message ?? limit) < limit) return false
  return true
}

const tablesCache = new WeakMap<Prepared, WholeTables>()

function tablesOf(view: WorkingView): WholeTables {
  const hit = tablesCache.get(view.prepared)
  if (hit) return hit
  const { conversation, grouping } = view.prepared
  const { groups } = grouping
  const { calls } = grouping.pairing
  const index = view.parts
  const limit = view.limit
  const visibleCount = view.visibleGroupCount
  const pendingCall = (c: number): boolean => isPendingCall(grouping.pairing, limit, c)
  const n = groups.length
  const outOfContext = new Uint8Array(n)
  const upstream = new Uint8Array(n)
  const pendingGroup = new Uint8Array(n)
  for (const mk of conversation.markers)
    if (mk.beforeIndex < limit) {
      const g = grouping.groupOfMessage[mk.beforeIndex]
      if (g !== undefined) upstream[g] = 1
    }
  for (let g = 0; g < Math.min(visibleCount, n); g++) {
    if (view.outOfContext(g)) outOfContext[g] = 1
    for (const c of groups[g]?.calls ?? [])
      if (pendingCall(c)) {
        pendingGroup[g] = 1
        break
      }
  }
  const pendingParts: [number, number][] = []
  for (let c = 0; c < calls.length; c++) {
    const info = calls[c] as (typeof calls)[number]
    if (info.message >= limit) break // calls are in message order
    if (pendingCall(c)) pendingParts.push([info.message, info.part])
  }
  const lastMessage = Math.min(limit, conversation.messages.length) - 1
  const latestAssistant = lastMessage >= 0 ? (index.lastAssistant[lastMessage] as number) : -1
  const thinkingParts: number[] = []
  conversation.messages[latestAssistant]?.parts.forEach((p, i) => {
    if (p.kind === 'reasoning') thinkingParts.push(i)
  })
  const tables: WholeTables = {
    visibleCount,
    lastTurn: view.lastTurn,
    outOfContext,
    upstream,
    pendingGroup,
    pendingParts,
    latestAssistant,
    thinkingGroup:
      latestAssistant >= 0 && thinkingParts.length > 0
        ? (grouping.groupOfMessage[latestAssistant] as number)
        : -1,
    thinkingParts,
  }
  tablesCache.set(view.prepared, tables)
  return tables
}

/** The kinds `staticKinds` gives (system prompt, pinned ids, protected tools), per group. */
type StaticKind = 'system' | 'pinned' | 'protected_tool' | null

/**
 * Protections over the whole conversation of `view` for `config` (`statics`: its static kinds
 * per group): a group's kind is read from the tables, every part's own protection is in a map.
 */
export function wholeProtections(
  view: WorkingView,
  config: ProtectionConfig,
  statics: readonly StaticKind[],
): Protections {
  const t = tablesOf(view)
  const { prepared } = view
  const index: PartIndex = view.parts
  const n = prepared.grouping.groups.length
  const firstProtectedTurn = config.recentTurns > 0 ? t.lastTurn - config.recentTurns + 1 : Infinity
  const thinkingGroup = config.latestThinking ? t.thinkingGroup : -1
  const { groups } = prepared.grouping
  const groupKinds = new Array<ProtectionKind | null>(n)
  for (let g = 0; g < n; g++) {
    let kind: ProtectionKind | null = null
    if (g < t.visibleCount) {
      const own = statics[g] ?? null
      const turn = groups[g]?.turn ?? 0
      if (own === 'system') kind = own
      else if (t.outOfContext[g]) kind = 'out_of_context'
      else if (t.upstream[g]) kind = 'upstream_summary'
      else if (turn >= firstProtectedTurn && turn >= 1) kind = 'recent_turn'
      else if (own) kind = own
      else if (config.pendingCalls && t.pendingGroup[g]) kind = 'pending_call'
      else if (g === thinkingGroup) kind = 'latest_thinking'
    }
    groupKinds[g] = kind
  }
  // Parts protected on their own (pending calls, then the latest thinking), keyed "m:p" for the
  // list and by flat part number for `part`.
  const parts = new Map<string, ProtectionKind>()
  const own = new Map<number, ProtectionKind>()
  const ownPart = (m: number, p: number, kind: ProtectionKind) => {
    parts.set(partKey(m, p), kind)
    const k = flatPart(index, m, p)
    if (k >= 0) own.set(k, kind)
  }
  if (config.pendingCalls) for (const [m, p] of t.pendingParts) ownPart(m, p, 'pending_call')
  if (thinkingGroup >= 0)
    for (const p of t.thinkingParts) ownPart(t.latestAssistant, p, 'latest_thinking')
  return new WholeProtections(groupKinds, parts, own, index)
}

/**
 * The protections `wholeProtections` made, as a class: its methods are the same functions for
 * every plan, where an object of closures made per call gave every re-plan and replay point new
 * call targets: the strategies calling `group`/`part`, optimised for the previous closures, were
 * deoptimised, and each new closure was compiled again (6 compiles each over 200 fleet files).
 */
class WholeProtections implements Protections {
  private readonly groupKinds: readonly (ProtectionKind | null)[]
  private readonly parts: ReadonlyMap<string, ProtectionKind>
  private readonly own: ReadonlyMap<number, ProtectionKind>
  private readonly index: PartIndex
  private listed: ReturnType<Protections['list']> | undefined = undefined

  constructor(
    groupKinds: readonly (ProtectionKind | null)[],
    parts: ReadonlyMap<string, ProtectionKind>,
    own: ReadonlyMap<number, ProtectionKind>,
    index: PartIndex,
  ) {
    this.groupKinds = groupKinds
    this.parts = parts
    this.own = own
    this.index = index
  }

  list(): ReturnType<Protections['list']> {
    if (!this.listed) {
      const groupsMap = new Map<number, ProtectionKind>()
      for (let g = 0; g < this.groupKinds.length; g++) {
        const k = this.groupKinds[g]
        if (k) groupsMap.set(g, k)
      }
      this.listed = { groups: groupsMap, parts: this.parts }
    }
    return this.listed
  }

  group(g: number): ProtectionKind | null {
    return g >= 0 && g < this.groupKinds.length ? (this.groupKinds[g] ?? null) : null
  }

  part(g: number, ref: PartRef): ProtectionKind | null {
    const k = this.own.size === 0 ? -1 : flatPart(this.index, ref.message, ref.part)
    const mine = k >= 0 ? this.own.get(k) : undefined
    if (mine) return mine
    const kind = this.group(g)
    // Pending calls and latest thinking protect their own parts, not their siblings.
    return kind === 'pending_call' || kind === 'latest_thinking' ? null : kind
  }
}
