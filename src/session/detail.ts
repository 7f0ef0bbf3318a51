/**
 * One group before and after the latest run, for the detail drawer (Pretty, Raw, Diff, Why,
 * Tokens). Text is cut at `maxChars` per part so a 2 MB tool output never crosses the boundary
 * whole; the drawer asks again with a larger limit for "show more".
 */
import type { Decision } from '../engine/compaction/types.ts'
import type { Group } from '../engine/groups.ts'
import type { Conversation, Message } from '../engine/model.ts'
import { modelFamily } from '../engine/tokens/pricing.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import { BudgetPricing } from './budget.ts'
import { groupFacts } from './facts.ts'
import { groupingOf } from './grouping.ts'
import { systemMessage, wireMessage, type PartContext } from './detail-parts.ts'
import type { GroupDetail, WireMessage } from './types.ts'
import { groupStatuses, toWireDecision, type RunRecord } from './run.ts'

/** Projection messages by id, built once per projection (the drawer asks many times per run). */
const projectedById = new WeakMap<Conversation, ReadonlyMap<string, Message>>()

function byId(projection: Conversation): ReadonlyMap<string, Message> {
  let map = projectedById.get(projection)
  if (!map) {
    map = new Map(projection.messages.map((m) => [m.id, m]))
    projectedById.set(projection, map)
  }
  return map
}

/** Whether a decision is about `groupId`: made on it, or a summary that stands in for it. */
const names = (d: Decision, groupId: string): boolean =>
  d.groupId === groupId || (d.kind === 'insert' && d.covers.includes(groupId))

/**
 * The before/after of group `groupId` of `conversation`, or null when there is no such group.
 * With a record (the latest run on this conversation), figures are priced with the run's counter
 * so they match the summary the table shows; without one, `after` is null and the status `kept`.
 */
export function groupDetail(
  conversation: Conversation,
  counter: TextCounter,
  record: RunRecord | null,
  groupId: string,
  maxChars: number,
): GroupDetail | null {
  const grouping = record?.prepared.grouping ?? groupingOf(conversation)
  const group = grouping.groups.find((g) => g.id === groupId)
  if (!group) return null
  const priceWith = record?.prepared.counter ?? counter
  const pricing = record?.pricing ?? new BudgetPricing(conversation, priceWith)
  const ctx: PartContext = {
    counter: priceWith,
    family: modelFamily(conversation.meta.model),
    // Infinity ("everything") and junk both arrive here: clamp to a sane whole number.
    maxChars: Number.isFinite(maxChars)
      ? Math.max(0, Math.floor(maxChars))
      : Number.MAX_SAFE_INTEGER,
  }
  const isSystem = group.kind === 'system' && group.messages.length === 0

  const before: WireMessage[] = isSystem
    ? [systemMessage(conversation.system, ctx)]
    : group.messages.map((i) => {
        const m = conversation.messages[i] as Message
        return wireMessage(m, i, pricing.message(m).total, ctx)
      })

  const decisions = record ? record.result.decisions.filter((d) => names(d, groupId)) : []
  const after = record ? afterSide(conversation, record, group, isSystem, ctx, pricing) : null
  const summaries: WireMessage[] = []
  const seen = new Set<string>()
  for (const d of decisions) {
    if (d.kind !== 'insert' || !d.covers.includes(groupId) || seen.has(d.summary.id)) continue
    seen.add(d.summary.id)
    summaries.push(wireMessage(d.summary, -1, pricing.projected(d.summary).total, ctx))
  }

  const beforeTokens = before.reduce((a, m) => a + m.tokens, 0)
  const facts = record?.summary.groups
  return {
    groupId,
    index: group.index,
    kind: group.kind,
    turn: group.turn,
    tools: group.tools,
    // The facts the table showed for this group (the load's; none before a run, as before).
    resource: record ? (groupFacts(conversation, grouping).resources[group.index] ?? '') : '',
    status: record ? (groupStatuses([groupId], record.result.decisions)[0] ?? 'kept') : 'kept',
    before,
    after,
    summaries,
    decisions: decisions.map(toWireDecision),
    tokens: {
      before: facts ? (facts.tokensBefore[group.index] ?? beforeTokens) : beforeTokens,
      after: after ? (facts?.tokensAfter[group.index] ?? sumTokens(after)) : null,
    },
    configName: record?.config.name ?? null,
    usedLater: record?.risk.items.find((i) => i.groupId === groupId) ?? null,
  }
}

const sumTokens = (messages: readonly WireMessage[]): number =>
  messages.reduce((a, m) => a + m.tokens, 0)

/** The group's messages as the model receives them after the run (none when excluded). */
function afterSide(
  conversation: Conversation,
  record: RunRecord,
  group: Group,
  isSystem: boolean,
  ctx: PartContext,
  pricing: BudgetPricing,
): WireMessage[] {
  const projection = record.result.projection
  if (isSystem) return projection.system.length > 0 ? [systemMessage(projection.system, ctx)] : []
  const projected = byId(projection)
  const out: WireMessage[] = []
  for (const i of group.messages) {
    const original = conversation.messages[i] as Message
    const m = projected.get(original.id)
    if (m) out.push(wireMessage(m, i, pricing.projected(m).total, ctx, original))
  }
  return out
}
