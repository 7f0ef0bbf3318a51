import type { GroupKind } from './inspect-types.ts'
import type { Conversation, Message } from './model.ts'
import { pairToolCalls, type Pairing } from './pairing.ts'
import { mapItems } from './arrays.ts'

export type { GroupKind } from './inspect-types.ts'

/** An atomic unit of compaction: strategies keep, drop or shrink groups, never half of one. */
export interface Group {
  /** Stable: `g<first message id>` (or `g:system` for the top-level system prompt). */
  readonly id: string
  readonly index: number
  readonly kind: GroupKind
  /** Indexes into `conversation.messages`, ascending. Empty for the top-level system group. */
  readonly messages: readonly number[]
  /** Turn number: 0 before the first real user message, then 1, 2, … */
  readonly turn: number
  /** Tool names called in this group, in call order (duplicates kept once). */
  readonly tools: readonly string[]
  /** Indexes into `pairing.calls` / `pairing.results`. */
  readonly calls: readonly number[]
  readonly results: readonly number[]
  readonly orphans: number
  readonly pending: number
  /** Injected / meta user content (does not start a turn). */
  readonly injected: boolean
  readonly sidechain?: string
}

export interface Grouping {
  readonly groups: readonly Group[]
  readonly pairing: Pairing
  /** For each message, the index of its group. */
  readonly groupOfMessage: readonly number[]
  readonly turns: number
}

const isResultOnly = (m: Message): boolean =>
  m.parts.length > 0 && m.parts.every((p) => p.kind === 'tool_result')

const isReasoningOnly = (m: Message): boolean =>
  m.parts.length > 0 && m.parts.every((p) => p.kind === 'reasoning' || p.kind === 'opaque')

/** A message that starts a turn: a real (not injected) user message that is not tool results. */
export function startsTurn(m: Message): boolean {
  return (
    m.role === 'user' &&
    !m.injected &&
    !m.summaryOf &&
    !m.parts.some((p) => p.kind === 'tool_result')
  )
}

/**
 * Split a conversation into groups (SPEC §3).
 *
 * A `tool_call` group is the assistant message with its calls, reasoning-only assistant messages
 * right before it, and every message holding a result of those calls — even when results are far
 * away or out of order. If one message answers calls of two assistant messages, both become one
 * group (a union), so no group is ever split by a decision on another.
 */
export function buildGroups(conversation: Pick<Conversation, 'messages' | 'system'>): Grouping {
  const messages = conversation.messages
  const pairing = pairToolCalls(conversation)
  const n = messages.length

  // Union-find over messages: each message starts alone; calls and results link up.
  const parent = new Int32Array(n)
  for (let i = 0; i < n; i++) parent[i] = i
  const find = (x: number): number => {
    while (parent[x] !== x) {
      const up = parent[parent[x] as number] as number
      parent[x] = up
      x = up
    }
    return x
  }
  const union = (a: number, b: number): void => {
    const ra = find(a)
    const rb = find(b)
    if (ra === rb) return
    // Keep the earliest message as the root so group ids name their first message.
    if (ra < rb) parent[rb] = ra
    else parent[ra] = rb
  }

  for (const result of pairing.results) {
    const call = pairing.calls[result.call]
    if (call) union(call.message, result.message)
  }
  // Reasoning emitted as its own message right before the call belongs to that call.
  for (let i = n - 2; i >= 0; i--) {
    const m = messages[i]
    const next = messages[i + 1]
    if (m && next && m.role === 'assistant' && isReasoningOnly(m) && next.role === 'assistant') {
      union(i, i + 1)
    }
  }

  const callsByMessage = new Map<number, number[]>()
  pairing.calls.forEach((c, i) => pushTo(callsByMessage, c.message, i))
  const resultsByMessage = new Map<number, number[]>()
  pairing.results.forEach((r, i) => pushTo(resultsByMessage, r.message, i))

  const groups: Group[] = []
  const groupOfMessage = new Array<number>(n).fill(-1)
  const members = new Map<number, number[]>()
  for (let i = 0; i < n; i++) pushTo(members, find(i), i)

  if (conversation.system.length > 0) {
    groups.push({
      id: 'g:system',
      index: 0,
      kind: 'system',
      messages: [],
      turn: 0,
      tools: [],
      calls: [],
      results: [],
      orphans: 0,
      pending: 0,
      injected: false,
      sidechain: undefined,
    })
  }

  let turn = 0
  for (let i = 0; i < n; i++) {
    if (find(i) !== i) continue // not a root: already placed with its group
    const msgs = members.get(i) ?? [i]
    const first = messages[i] as Message
    if (startsTurn(first)) turn++
    const calls = msgs.flatMap((m) => callsByMessage.get(m) ?? [])
    const results = msgs.flatMap((m) => resultsByMessage.get(m) ?? [])
    const tools: string[] = []
    for (const c of calls) {
      const name = pairing.calls[c]?.name
      if (name !== undefined && !tools.includes(name)) tools.push(name)
    }
    const index = groups.length
    groups.push({
      id: `g${first.id}`,
      index,
      kind: kindOf(
        mapItems(msgs, (m) => messages[m] as Message),
        calls.length > 0,
      ),
      messages: msgs,
      turn,
      tools,
      calls,
      results,
      orphans: results.filter((r) => pairing.results[r]?.call === -1).length,
      pending: calls.filter((c) => pairing.calls[c]?.status === 'pending').length,
      injected: first.role === 'user' && first.injected === true,
      // Always present (undefined off a sidechain): one hidden class for every group, so the
      // planners reading groups meet one map, not two, whichever file came first.
      sidechain: first.sidechain ? first.sidechain : undefined,
    })
    for (const m of msgs) groupOfMessage[m] = index
  }
  return { groups, pairing, groupOfMessage, turns: turn }
}

function kindOf(msgs: readonly Message[], hasCalls: boolean): GroupKind {
  if (hasCalls) return 'tool_call'
  const first = msgs[0]
  if (!first) return 'user'
  if (first.summaryOf) return 'summary'
  if (msgs.some(isResultOnly) || first.parts.some((p) => p.kind === 'tool_result')) {
    return 'tool_call' // orphan results: still tool traffic, flagged by `orphans`
  }
  switch (first.role) {
    case 'system':
      return 'system'
    case 'assistant':
      return 'assistant_text'
    case 'user':
    case 'tool':
      return 'user'
  }
}

function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
