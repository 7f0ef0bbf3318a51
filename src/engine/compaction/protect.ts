import type { Group } from '../groups.ts'
import type { PartRef } from '../pairing.ts'
import { partKey } from './prepared.ts'
import type { ProtectionConfig, ProtectionKind } from './types.ts'
import type { WorkingView } from './view.ts'

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
 * Compute protections for the messages visible in `view` (SPEC §5): system groups, the last N real
 * user turns, pinned message/group ids, protected tools, calls still waiting for a result, and the
 * thinking blocks of the latest assistant message (Anthropic rejects requests that change them).
 * Linear in the visible conversation.
 */
export function computeProtections(view: WorkingView, config: ProtectionConfig): Protections {
  const { conversation, grouping } = view.prepared
  const groups = grouping.groups
  const limit = view.limit
  const byGroup = new Array<ProtectionKind | null>(groups.length).fill(null)
  const byPart = new Map<string, ProtectionKind>()

  // Groups are ordered by their first message, so the visible ones are a prefix (plus the
  // top-level system group, which has no messages): stop at the first one past the limit.
  const visible: Group[] = []
  for (const g of groups) {
    if (g.messages.length > 0 && (g.messages[0] as number) >= limit) break
    visible.push(g)
  }
  let lastTurn = 0
  for (const g of visible) lastTurn = Math.max(lastTurn, g.turn)
  const firstProtectedTurn = config.recentTurns > 0 ? lastTurn - config.recentTurns + 1 : Infinity
  const pinned = new Set(config.pinned)
  const tools = new Set(config.tools.map((t) => t.toLowerCase()))

  for (const g of visible) {
    let kind: ProtectionKind | null = null
    if (config.system && g.kind === 'system') kind = 'system'
    else if (g.turn >= firstProtectedTurn && g.turn >= 1) kind = 'recent_turn'
    else if (
      pinned.size > 0 &&
      (pinned.has(g.id) || g.messages.some((m) => pinned.has(conversation.messages[m]?.id ?? '')))
    )
      kind = 'pinned'
    else if (tools.size > 0 && g.tools.some((t) => tools.has(t.toLowerCase())))
      kind = 'protected_tool'
    byGroup[g.index] = kind
  }

  if (config.pendingCalls) {
    const { calls, results } = grouping.pairing
    for (const c of calls) {
      if (c.message >= limit) break // calls are in message order
      if (c.status === 'server') continue
      let answered = false
      for (const r of c.results) {
        if ((results[r]?.message ?? limit) < limit) {
          answered = true
          break
        }
      }
      if (answered) continue
      byPart.set(partKey(c.message, c.part), 'pending_call')
      const g = grouping.groupOfMessage[c.message] as number
      byGroup[g] ??= 'pending_call'
    }
  }

  if (config.latestThinking) {
    for (let m = Math.min(limit, conversation.messages.length) - 1; m >= 0; m--) {
      const msg = conversation.messages[m]
      if (msg?.role !== 'assistant') continue
      let any = false
      msg.parts.forEach((p, i) => {
        if (p.kind === 'reasoning') {
          byPart.set(partKey(m, i), 'latest_thinking')
          any = true
        }
      })
      if (any) {
        const g = grouping.groupOfMessage[m] as number
        byGroup[g] ??= 'latest_thinking'
      }
      break
    }
  }

  return {
    list() {
      const groupsMap = new Map<number, ProtectionKind>()
      byGroup.forEach((k, i) => {
        if (k) groupsMap.set(i, k)
      })
      return { groups: groupsMap, parts: byPart }
    },
    group: (group) => byGroup[group] ?? null,
    part(group, ref) {
      const own = byPart.get(partKey(ref.message, ref.part))
      if (own) return own
      const g = byGroup[group] ?? null
      // Pending calls and latest thinking protect their own parts, not their siblings.
      return g === 'pending_call' || g === 'latest_thinking' ? null : g
    },
  }
}
