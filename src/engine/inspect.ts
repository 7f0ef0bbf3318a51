import { buildGroups, type Grouping } from './groups.ts'
import type {
  ApproximateCount,
  GroupKind,
  InspectReport,
  ReportedSummary,
  TokenCategory,
} from './inspect-types.ts'
import type { Conversation } from './model.ts'
import {
  DEFAULT_CALIBRATION,
  DEFAULT_FRAMING,
  modelFamily,
  priceMessage,
  priceStatic,
  type PricingOptions,
} from './tokens/pricing.ts'
import type { TextCounter } from './tokens/types.ts'
import { pushAll } from './arrays.ts'

export type { InspectReport } from './inspect-types.ts'

export const TOKEN_CATEGORIES: readonly TokenCategory[] = [
  'system',
  'tools',
  'user',
  'assistant',
  'reasoning',
  'tool_calls',
  'tool_results',
  'images',
  'opaque',
  'framing',
]

const GROUP_KINDS: readonly GroupKind[] = [
  'system',
  'user',
  'assistant_text',
  'tool_call',
  'summary',
]

function zeroCategories(): Record<TokenCategory, number> {
  return Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, 0])) as Record<TokenCategory, number>
}

/** Merge rule-priced amounts with the same label so the report stays short. */
function mergeApproximate(items: readonly ApproximateCount[]): ApproximateCount[] {
  const byWhat = new Map<string, { tokens: number; n: number }>()
  for (const a of items) {
    const e = byWhat.get(a.what) ?? { tokens: 0, n: 0 }
    e.tokens += a.tokens
    e.n++
    byWhat.set(a.what, e)
  }
  return [...byWhat].map(([what, e]) => ({
    what: e.n > 1 ? `${e.n} × ${what}` : what,
    tokens: e.tokens,
  }))
}

/**
 * Everything `compaction-lab inspect` reports (SPEC §8): counts of messages, groups, calls,
 * results, orphans and pending calls, and tokens by category under the given counter, beside the
 * usage the transcript itself reported.
 */
export function inspectConversation(
  conversation: Conversation,
  counter: TextCounter,
  options: PricingOptions & { grouping?: Grouping } = {},
): InspectReport {
  const grouping = options.grouping ?? buildGroups(conversation)
  const family = options.family ?? modelFamily(conversation.meta.model)
  const framing = options.framing ?? DEFAULT_FRAMING

  const byCategory = zeroCategories()
  const approximate: ApproximateCount[] = []
  const stat = priceStatic(conversation, counter)
  byCategory.system += stat.system
  byCategory.tools += stat.tools
  byCategory.framing += framing.perConversation
  for (const message of conversation.messages) {
    const priced = priceMessage(message, counter, { ...options, family, framing })
    for (const [cat, n] of Object.entries(priced.byCategory) as [TokenCategory, number][]) {
      byCategory[cat] += n
    }
    pushAll(approximate, priced.approximate)
  }
  const total = TOKEN_CATEGORIES.reduce((sum, c) => sum + byCategory[c], 0)
  const factor = { ...DEFAULT_CALIBRATION, ...options.calibration }[family]

  const groups = Object.fromEntries(GROUP_KINDS.map((k) => [k, 0])) as Record<GroupKind, number>
  for (const g of grouping.groups) groups[g.kind]++

  const { calls, results } = grouping.pairing
  return {
    format: conversation.meta.format,
    messages: conversation.messages.length,
    turns: grouping.turns,
    groups: { ...groups, total: grouping.groups.length },
    toolCalls: calls.length,
    toolResults: results.length,
    orphans: results.filter((r) => r.call === -1).length,
    pending: calls.filter((c) => c.status === 'pending').length,
    pairedByPosition: results.filter((r) => r.pairedBy === 'position').length,
    markers: conversation.markers.length,
    tokens: {
      tokenizer: counter.id,
      exact: counter.exact,
      total,
      byCategory,
      approximate: mergeApproximate(approximate),
      calibration: { family, factor, total: Math.round(total * factor) },
    },
    reported: lastReported(conversation),
    meta: {
      model: conversation.meta.model,
      title: conversation.meta.title,
      wrapper: conversation.meta.wrapper,
      contextWindow: conversation.meta.contextWindow,
      historyIncomplete: conversation.meta.historyIncomplete,
      notes: capNotes(conversation.meta.notes ?? []),
    },
  }
}

function lastReported(conversation: Conversation): ReportedSummary | null {
  let points = 0
  let last: ReportedSummary | null = null
  for (const m of conversation.messages) {
    const u = m.usage
    if (!u || u.contextTokens === undefined) continue
    points++
    last = { contextTokens: u.contextTokens, source: u.source, messageId: m.id, points: 0 }
  }
  return last ? { ...last, points } : null
}

/** Notes can be long (an aider history lists every other session): keep the report readable. */
function capNotes(notes: readonly string[], max = 20): readonly string[] {
  return notes.length <= max
    ? notes
    : [...notes.slice(0, max), `… ${notes.length - max} more notes`]
}
