/**
 * The budget as the headline counts it: the categories of what the next model call would receive
 * (its own thread, since the last upstream compaction, without reasoning the provider does not
 * count), scaled so they add up to the reconciled headline exactly, plus the hidden prefix as its
 * own category ("system + tools (inferred)"). One figure, broken down — never a second estimate.
 */
import { contextPlan } from '../engine/accounting/plan.ts'
import type { Reconciliation } from '../engine/accounting/types.ts'
import type { Prepared } from '../engine/compaction/prepared.ts'
import { partIndexOf } from '../engine/compaction/prepared.ts'
import type { Conversation, Message, Part } from '../engine/model.ts'
import type { BudgetPricing } from './budget.ts'

/** The budget category of the hidden prefix the reconciliation inferred. */
export const INFERRED = 'inferred'

interface ContextSelection {
  /** Original message ids in the next call's context. */
  readonly ids: ReadonlySet<string>
  /** Original parts the provider does not count there (earlier-turn reasoning, Gemini thoughts). */
  readonly stripped: ReadonlySet<Part>
}

const selections = new WeakMap<Prepared, ContextSelection>()

/** What the next model call (after the last message) would have in its context. */
export function nextCallContext(prepared: Prepared): ContextSelection {
  const hit = selections.get(prepared)
  if (hit) return hit
  const plan = contextPlan(prepared)
  const { messages } = prepared.conversation
  const lastCall = plan.calls[plan.calls.length - 1]
  const thread = lastCall === undefined ? 0 : (plan.threadOf[lastCall] as number)
  let start = 0
  for (let m = 0; m < messages.length; m++)
    if (plan.threadOf[m] === thread && plan.resetAt[m]) start = m
  const ids = new Set<string>()
  for (let m = start; m < messages.length; m++)
    if (plan.threadOf[m] === thread) ids.add((messages[m] as Message).id)
  const index = partIndexOf(prepared)
  const stripped = new Set<Part>()
  const partOf = (flat: number): Part | undefined => {
    const m = plan.messageOfPart[flat] as number
    return messages[m]?.parts[flat - (index.offset[m] as number)]
  }
  for (const list of plan.stripAt.values())
    for (const flat of list) {
      const p = partOf(flat)
      if (p) stripped.add(p)
    }
  for (const flat of plan.dropped) {
    const p = partOf(flat)
    if (p) stripped.add(p)
  }
  const selection = { ids, stripped }
  selections.set(prepared, selection)
  return selection
}

/** The conversation restricted to the next call's context (inserted summaries kept). */
function restrict(conversation: Conversation, selection: ContextSelection): Conversation {
  const messages: Message[] = []
  for (const m of conversation.messages) {
    if (!m.summaryOf && !selection.ids.has(m.id)) continue
    const parts = m.parts.some((p) => selection.stripped.has(p))
      ? m.parts.filter((p) => !selection.stripped.has(p))
      : m.parts
    messages.push(parts === m.parts ? m : { ...m, parts })
  }
  return { ...conversation, messages }
}

// The original's raw categories depend on the conversation and its pricing only, not on the
// config: priced once per (pricing, prepared) instead of on every run (a field edit re-priced
// 10,000 messages for a figure that cannot change, issue 14). Never mutated (apportion reads it).
const originalCache = new WeakMap<BudgetPricing, WeakMap<Prepared, Record<string, number>>>()

function originalRaw(prepared: Prepared, pricing: BudgetPricing): Record<string, number> {
  let byPrepared = originalCache.get(pricing)
  if (!byPrepared) originalCache.set(pricing, (byPrepared = new WeakMap()))
  let raw = byPrepared.get(prepared)
  if (!raw) {
    raw = pricing.budget(restrict(prepared.conversation, nextCallContext(prepared)), false)
    byPrepared.set(prepared, raw)
  }
  return raw
}

/**
 * Categories of `conversation` (the original, or a projection of it) in the next call's context,
 * scaled to add up to `headline` with the inferred prefix apart.
 */
export function reconciledBudget(
  prepared: Prepared,
  pricing: BudgetPricing,
  conversation: Conversation,
  stubs: boolean,
  headline: number,
  reconciliation: Reconciliation,
): Record<string, number> {
  const raw =
    conversation === prepared.conversation && !stubs
      ? originalRaw(prepared, pricing)
      : pricing.budget(restrict(conversation, nextCallContext(prepared)), stubs)
  const prefix =
    reconciliation.figures[reconciliation.figures.length - 1]?.prefix ?? reconciliation.prefixTokens
  return apportion(raw, Math.max(0, headline - prefix), prefix)
}

/**
 * Scale integer categories to add up to `target` (largest remainders), then add the prefix. Keeps
 * every category's share; the sum is exact, so the bars and the headline always agree.
 */
export function apportion(
  raw: Readonly<Record<string, number>>,
  target: number,
  prefix: number,
): Record<string, number> {
  const entries = Object.entries(raw)
  const sum = entries.reduce((t, [, n]) => t + n, 0)
  const out: Record<string, number> = {}
  if (sum <= 0) {
    for (const [k] of entries) out[k] = 0
  } else {
    const exact = entries.map(([k, n]) => [k, (n * target) / sum] as const)
    let given = 0
    for (const [k, x] of exact) {
      out[k] = Math.floor(x)
      given += Math.floor(x)
    }
    const byRemainder = [...exact].sort((a, b) => (b[1] % 1) - (a[1] % 1))
    for (let i = 0; i < Math.round(target) - given && i < byRemainder.length; i++) {
      const k = (byRemainder[i] as readonly [string, number])[0]
      out[k] = (out[k] as number) + 1
    }
  }
  out[INFERRED] = Math.round(prefix)
  return out
}
