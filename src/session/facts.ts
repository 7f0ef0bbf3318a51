/**
 * Per-group facts the table shows and filters on (role, tools, resource, turn: once per loaded
 * conversation), the upstream compactions found in the transcript, and the token levels at which
 * pipeline steps fire — all computed in the worker so the UI never derives them itself.
 */
import type { Prepared } from '../engine/compaction/prepared.ts'
import type { Grouping } from '../engine/groups.ts'
import type { Conversation, ToolCallPart } from '../engine/model.ts'
import {
  continuationIdentity,
  sessionLinks,
} from '../engine/strategies/supersede-stale-results/sessions.ts'
import { categorizeFixed } from '../engine/strategies/supersede-stale-results/categories.ts'
import {
  extractFixed,
  resourceLabel,
} from '../engine/strategies/supersede-stale-results/identity.ts'
import type { CompactionConfig } from '../config/schema.ts'
import type { GroupFacts, RunSummary, WireUpstreamMarker } from './types.ts'

/** Longest resource label kept; paths and commands beyond it are cut with an ellipsis. */
const MAX_RESOURCE = 160
const MAX_UPSTREAM_SUMMARY = 200

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** The resource of a group's first tool call that has one (file path, search, command). */
function resourceOf(
  conversation: Conversation,
  grouping: Grouping,
  callIndexes: readonly number[],
): string {
  const cwd = conversation.meta.cwd
  const { pairing } = grouping
  const links = sessionLinks(conversation, pairing)
  const fixed = (p: ToolCallPart) => extractFixed(p.name, categorizeFixed(p.name), p.argsRaw, cwd)
  for (const c of callIndexes) {
    const info = pairing.calls[c]
    const part = info ? conversation.messages[info.message]?.parts[info.part] : undefined
    if (part?.kind !== 'tool_call') continue
    // A Codex write_stdin shows the command of the session it writes to.
    const link = links.get(part)
    const session = link ? fixed(link.origin) : null
    const identity = link && session ? continuationIdentity(session, link) : fixed(part)
    if (identity) return cut(resourceLabel(identity, false), MAX_RESOURCE)
  }
  return ''
}

/** Shown after the tools of a group whose calls were read from text (text-action agents). */
const DERIVED_MARK = ' (from text)'

function derivedCalls(
  conversation: Conversation,
  grouping: Grouping,
  callIndexes: readonly number[],
): boolean {
  return callIndexes.some((c) => {
    const info = grouping.pairing.calls[c]
    const part = info ? conversation.messages[info.message]?.parts[info.part] : undefined
    return part?.kind === 'tool_call' && part.derivedFrom === 'text'
  })
}

/**
 * Facts depend on the conversation (and its grouping) only, not on the config or the counter:
 * computed once per grouping. The load's reply carries them (cloned, never transferred, so the
 * cached arrays stay whole); run replies leave them out.
 */
const factsCache = new WeakMap<Grouping, GroupFacts>()

export function groupFacts(conversation: Conversation, grouping: Grouping): GroupFacts {
  let facts = factsCache.get(grouping)
  if (!facts) {
    facts = computeGroupFacts(conversation, grouping)
    factsCache.set(grouping, facts)
  }
  return facts
}

function computeGroupFacts(conversation: Conversation, grouping: Grouping): GroupFacts {
  const { groups } = grouping
  const messages = conversation.messages
  const n = groups.length
  const turns = new Int32Array(n)
  const firstMessage = new Int32Array(n)
  const messageCounts = new Int32Array(n)
  const roles: string[] = new Array(n)
  const tools: string[] = new Array(n)
  const resources: string[] = new Array(n)
  for (const g of groups) {
    const first = g.messages[0]
    turns[g.index] = g.turn
    firstMessage[g.index] = first ?? -1
    messageCounts[g.index] = g.messages.length
    roles[g.index] = first === undefined ? 'system' : (messages[first]?.role ?? 'system')
    const derived = derivedCalls(conversation, grouping, g.calls)
    tools[g.index] = g.tools.join(', ') + (derived ? DERIVED_MARK : '')
    resources[g.index] = resourceOf(conversation, grouping, g.calls)
  }
  return { roles, tools, resources, turns, firstMessage, messageCounts }
}

export function upstreamMarkers(conversation: Conversation): WireUpstreamMarker[] {
  return conversation.markers.map((m) => ({
    beforeIndex: m.beforeIndex,
    origin: m.origin,
    ...(m.trigger !== undefined ? { trigger: m.trigger } : {}),
    ...(m.preTokens !== undefined ? { preTokens: m.preTokens } : {}),
    ...(m.summary !== undefined ? { summary: cut(m.summary, MAX_UPSTREAM_SUMMARY) } : {}),
  }))
}

/**
 * The lowest token level at which each enabled step's trigger can fire: `tokens` and
 * `window_fraction` conditions only (message/turn counts have no level on a token axis).
 */
export function triggerLevels(config: CompactionConfig, usable: number): RunSummary['triggers'] {
  const levels: { step: number; strategy: string; tokens: number }[] = []
  config.pipeline.forEach((step, index) => {
    if (!step.enabled || !step.trigger) return
    let lowest = Number.POSITIVE_INFINITY
    for (const c of step.trigger.conditions) {
      if (c.kind === 'tokens') lowest = Math.min(lowest, c.over)
      else if (c.kind === 'window_fraction') lowest = Math.min(lowest, Math.round(c.over * usable))
    }
    if (Number.isFinite(lowest))
      levels.push({ step: index, strategy: step.strategy, tokens: lowest })
  })
  return levels
}

/**
 * The groups an invariant's offenders point at. The checks name groups (`g…`), messages (their
 * id, or `#index`) or parts (`<group or message id>:<m>:<i>`); trailing `:…` segments are cut until
 * an id is known. Offenders that name no group (`total`, `projection`) map to nothing.
 */
export function offenderGroups(prepared: Prepared, offenders: readonly string[]): string[] {
  // Most checks pass with no offenders: no lookup to build (a run has a dozen checks).
  if (offenders.length === 0) return []
  const { groups, groupOfMessage } = prepared.grouping
  const { groupIds, byMessage } = offenderLookup(prepared)
  const groupOf = (message: number) => groups[groupOfMessage[message] ?? -1]?.id ?? null
  const resolve = (offender: string): string | null => {
    let key = offender
    for (;;) {
      if (groupIds.has(key)) return key
      const m = byMessage.get(key)
      if (m !== undefined) return groupOf(m)
      if (/^#\d+$/.test(key)) return groupOf(Number(key.slice(1)))
      const cut = key.lastIndexOf(':')
      if (cut <= 0) return null
      key = key.slice(0, cut)
    }
  }
  const out: string[] = []
  for (const offender of offenders) {
    const id = resolve(offender)
    if (id !== null && !out.includes(id)) out.push(id)
  }
  return out
}

interface OffenderLookup {
  readonly groupIds: ReadonlySet<string>
  /** Message id → its index in the conversation. */
  readonly byMessage: ReadonlyMap<string, number>
}

// Depends on the prepared conversation only: built once, not per check of every run.
const lookups = new WeakMap<Prepared, OffenderLookup>()

function offenderLookup(prepared: Prepared): OffenderLookup {
  let hit = lookups.get(prepared)
  if (!hit) {
    const byMessage = new Map<string, number>()
    prepared.conversation.messages.forEach((m, i) => byMessage.set(m.id, i))
    hit = { groupIds: new Set(prepared.grouping.groups.map((g) => g.id)), byMessage }
    lookups.set(prepared, hit)
  }
  return hit
}
