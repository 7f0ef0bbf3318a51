import type { Group } from '../groups.ts'
import type { PartRef } from '../pairing.ts'
import { groupFactsOf, MIXED, type GroupFacts } from './group-facts.ts'
import { flatPart, partKey, type Prepared } from './prepared.ts'
import { isPendingCall, wholeProtections } from './protect-whole.ts'
import type { ProtectionConfig, ProtectionKind } from './types.ts'
import type { WorkingView } from './view.ts'
import { remember as rememberValue } from '../recent-values.ts'

export const DEFAULT_PROTECTIONS: ProtectionConfig = {
  system: true,
  recentTurns: 0,
  pinned: [],
  tools: [],
  pendingCalls: true,
  latestThinking: true,
}

/** Answers "may this group be excluded / this part be replaced?" for one run. */
export interface Protections {
  /** Why excluding `group` is refused, or null. */
  group(group: number): ProtectionKind | null
  /** Why replacing the part is refused, or null. */
  part(group: number, ref: PartRef): ProtectionKind | null
  /** Every protected group and part (for the invariant check and the UI). */
  list(): {
    readonly groups: ReadonlyMap<number, ProtectionKind>
    readonly parts: ReadonlyMap<string, ProtectionKind>
  }
}

/**
 * What a group is protected as regardless of the visibility limit: the system prompt, pinned ids,
 * protected tools (in that order of precedence; `recent_turn` slots in after `system`). Computed
 * once per (prepared conversation, protection config) and shared by every replay point.
 */
type StaticKind = 'system' | 'pinned' | 'protected_tool' | null
const staticKindCache = new WeakMap<Prepared, Map<string, readonly StaticKind[]>>()

/**
 * A protection config's value as a key. Every edit in the app hands the engine a new config object
 * (cloned across the worker, validated into fresh objects), so tables kept per config object were
 * made again at every re-plan (a walk of every group, lower-casing each tool name: about 5 ms on
 * the bench's 10,000 messages with two protected tools). Kept per object too: replay asks at every
 * model call with the same one.
 */
const valueKeys = new WeakMap<ProtectionConfig, string>()
function valueKey(c: ProtectionConfig): string {
  let key = valueKeys.get(c)
  if (key === undefined) {
    key = JSON.stringify([
      c.system,
      c.recentTurns,
      c.pinned,
      c.tools,
      c.pendingCalls,
      c.latestThinking,
    ])
    valueKeys.set(c, key)
  }
  return key
}

/** Kept per config value: a few per prepared conversation (editing pinned ids makes many). */
function remember<T>(
  cache: WeakMap<Prepared, Map<string, T>>,
  prepared: Prepared,
  key: string,
  value: T,
): T {
  let byKey = cache.get(prepared)
  if (!byKey) {
    byKey = new Map()
    cache.set(prepared, byKey)
  }
  return rememberValue(byKey, key, value, 16)
}

function staticKinds(prepared: Prepared, config: ProtectionConfig): readonly StaticKind[] {
  const key = valueKey(config)
  const hit = staticKindCache.get(prepared)?.get(key)
  if (hit) return hit
  const { conversation, grouping } = prepared
  const pinned = new Set(config.pinned)
  const tools = new Set(config.tools.map((t) => t.toLowerCase()))
  const kinds = grouping.groups.map((g): StaticKind => {
    if (config.system && g.kind === 'system') return 'system'
    if (
      pinned.size > 0 &&
      (pinned.has(g.id) || g.messages.some((m) => pinned.has(conversation.messages[m]?.id ?? '')))
    )
      return 'pinned'
    if (tools.size > 0 && g.tools.some((t) => tools.has(t.toLowerCase()))) return 'protected_tool'
    return null
  })
  return remember(staticKindCache, prepared, key, kinds)
}

/**
 * Compute protections for the messages visible in `view` (SPEC §5): system groups, the last N real
 * user turns, pinned message/group ids, protected tools, calls still waiting for a result, and the
 * thinking blocks of the latest assistant message (Anthropic rejects requests that change them).
 *
 * Answers are computed on demand, in time proportional to the group or part asked about: replay
 * asks for protections at every model call, and a pass over the whole conversation there would
 * make a replay quadratic. `list()` (invariants, UI) builds the full maps in one linear pass.
 */
export function computeProtections(view: WorkingView, config: ProtectionConfig): Protections {
  // Over the whole conversation the answers depend on nothing a strategy changes (only on the
  // limit): combined from tables per prepared conversation (protect-whole.ts), once per (prepared,
  // config) and shared by every round of a run.
  if (view.limit === view.prepared.conversation.messages.length) {
    const key = valueKey(config)
    const hit = wholeCache.get(view.prepared)?.get(key)
    if (hit) return hit
    const whole = wholeProtections(view, config, staticKinds(view.prepared, config))
    return remember(wholeCache, view.prepared, key, whole)
  }
  return onDemand(view, config)
}

const wholeCache = new WeakMap<Prepared, Map<string, Protections>>()

function onDemand(view: WorkingView, config: ProtectionConfig): Protections {
  return new OnDemandProtections(view, config)
}

/**
 * The on-demand answers as a class, not an object of closures made per call: replay makes one at
 * every model call, and each new set of closures was a new call target for the strategies asking
 * `group`/`part` (deoptimised, 'wrong call target') and a new function to optimise again.
 */
class OnDemandProtections implements Protections {
  private readonly view: WorkingView
  private readonly config: ProtectionConfig
  private readonly prepared: Prepared
  private readonly index: WorkingView['parts']
  private readonly limit: number
  private readonly visibleCount: number
  private readonly statics: readonly StaticKind[]
  private readonly firstProtectedTurn: number
  /** The latest visible assistant message: only its thinking is protected. */
  private readonly latestAssistant: number
  private readonly thinkingGroup: number
  private readonly facts: GroupFacts
  /** Groups where an upstream compaction restarted the context (its summary message). */
  private readonly upstreamStarts = new Set<number>()

  constructor(view: WorkingView, config: ProtectionConfig) {
    const { conversation, grouping } = view.prepared
    const index = view.parts
    const limit = view.limit
    this.view = view
    this.config = config
    this.prepared = view.prepared
    this.index = index
    this.limit = limit
    this.visibleCount = view.visibleGroupCount
    this.statics = staticKinds(view.prepared, config)
    this.facts = groupFactsOf(view.prepared)
    // Turns never decrease along the groups, so the last visible turn is the highest.
    const lastTurn = view.lastTurn
    this.firstProtectedTurn = config.recentTurns > 0 ? lastTurn - config.recentTurns + 1 : Infinity
    const lastMessage = Math.min(limit, conversation.messages.length) - 1
    const latestAssistant = lastMessage >= 0 ? (index.lastAssistant[lastMessage] as number) : -1
    this.latestAssistant = latestAssistant
    const hasThinking = (m: number): boolean =>
      conversation.messages[m]?.parts.some((p) => p.kind === 'reasoning') ?? false
    this.thinkingGroup =
      config.latestThinking && latestAssistant >= 0 && hasThinking(latestAssistant)
        ? (grouping.groupOfMessage[latestAssistant] as number)
        : -1
    for (const mk of conversation.markers)
      if (mk.beforeIndex < limit) {
        const g = grouping.groupOfMessage[mk.beforeIndex]
        if (g !== undefined) this.upstreamStarts.add(g)
      }
  }

  /** A visible call, not run by the provider, with no visible result yet. */
  private pendingCall(c: number): boolean {
    return isPendingCall(this.prepared.grouping.pairing, this.limit, c)
  }

  group(g: number): ProtectionKind | null {
    if (!(g >= 0 && g < this.visibleCount)) return null
    const own = this.statics[g] ?? null
    if (own === 'system') return own
    if (this.view.outOfContext(g)) return 'out_of_context'
    if (this.upstreamStarts.has(g)) return 'upstream_summary'
    // From the flat per-group facts, not the group object (group-facts.ts).
    const facts = this.facts
    const turn = facts.turn[g] as number
    if (turn >= this.firstProtectedTurn && turn >= 1) return 'recent_turn'
    if (own) return own
    if (this.config.pendingCalls && this.pendingIn(g)) return 'pending_call'
    if (g === this.thinkingGroup) return 'latest_thinking'
    return null
  }

  /** Does the group hold a pending call (see `pendingCall`)? */
  private pendingIn(g: number): boolean {
    const message = this.facts.callMessage[g] as number
    if (message === MIXED) {
      const group = this.prepared.grouping.groups[g] as Group
      for (const c of group.calls) if (this.pendingCall(c)) return true
      return false
    }
    // Its calls' message is visible and some call's first result is not.
    return (
      message >= 0 && message < this.limit && (this.facts.answeredAt[g] as number) >= this.limit
    )
  }

  private ownPart(ref: PartRef): ProtectionKind | null {
    const index = this.index
    const k = flatPart(index, ref.message, ref.part)
    if (k < 0) return null
    if (this.config.latestThinking && ref.message === this.latestAssistant) {
      const part = this.prepared.conversation.messages[ref.message]?.parts[ref.part]
      if (part?.kind === 'reasoning') return 'latest_thinking'
    }
    const c = index.callAt[k] as number
    if (this.config.pendingCalls && c >= 0 && this.pendingCall(c)) return 'pending_call'
    return null
  }

  list(): ReturnType<Protections['list']> {
    const { conversation, grouping } = this.prepared
    const { groups } = grouping
    const { calls } = grouping.pairing
    const groupsMap = new Map<number, ProtectionKind>()
    for (let g = 0; g < groups.length; g++) {
      const k = this.group(g)
      if (k) groupsMap.set(g, k)
    }
    const parts = new Map<string, ProtectionKind>()
    if (this.config.pendingCalls) {
      for (let c = 0; c < calls.length; c++) {
        const info = calls[c] as (typeof calls)[number]
        if (info.message >= this.limit) break // calls are in message order
        if (this.pendingCall(c)) parts.set(partKey(info.message, info.part), 'pending_call')
      }
    }
    const latestAssistant = this.latestAssistant
    if (this.thinkingGroup >= 0) {
      conversation.messages[latestAssistant]?.parts.forEach((p, i) => {
        if (p.kind === 'reasoning') parts.set(partKey(latestAssistant, i), 'latest_thinking')
      })
    }
    return { groups: groupsMap, parts }
  }

  part(g: number, ref: PartRef): ProtectionKind | null {
    const own = this.ownPart(ref)
    if (own) return own
    const kind = this.group(g)
    // Pending calls and latest thinking protect their own parts, not their siblings.
    return kind === 'pending_call' || kind === 'latest_thinking' ? null : kind
  }
}
