import type { Prepared } from '../compaction/prepared.ts'
import type { Decision } from '../compaction/types.ts'
import type { Conversation } from '../model.ts'
import { KeptContext } from './kept.ts'
import { Finder, laterUsesOf } from './later.ts'
import { isEvidenceKey } from './strings.ts'
import { partPhrases, riskIndexOf, type RiskIndex } from './transcript-index.ts'
import type { RiskItem, RiskReport } from './types.ts'

/** What the risk check reads of a compaction result (a `CompactionResult` is one). */
export interface RiskInput {
  /** What the model would receive under the config. */
  readonly projection: Conversation
  readonly decisions: readonly Decision[]
}

export interface RiskOptions {
  /** Evidence strings kept per group (default 5). */
  readonly maxEvidence?: number
  /** Characters of kept text the phrase checks may scan per run (default 50 million). */
  readonly phraseBudget?: number
}

/** One string the agent used at `later`, claimed by the nearest removed group before it. */
interface Claim {
  readonly display: string
  readonly later: number
  group: number
}

/** Drop evidence another evidence string contains (`212` beside `line 212`), keep use order. */
function distinct(claims: readonly Claim[], max: number): Claim[] {
  const longestFirst = [...claims].sort((a, b) => b.display.length - a.display.length)
  const kept: Claim[] = []
  for (const c of longestFirst) {
    if (!kept.some((k) => k.display.includes(c.display))) kept.push(c)
  }
  const order = (a: Claim, b: Claim) =>
    a.later - b.later || (a.display < b.display ? -1 : a.display > b.display ? 1 : 0)
  return kept.sort(order).slice(0, max)
}

/** Tokens the change decisions on a group saved (summaries inserted elsewhere are not netted). */
function savedByGroup(decisions: readonly Decision[]): Map<string, number> {
  const saved = new Map<string, number>()
  for (const d of decisions) {
    if (d.kind !== 'exclude' && d.kind !== 'stub' && d.kind !== 'trim') continue
    const s = Math.max(0, d.tokensBefore - d.tokensAfter)
    saved.set(d.groupId, (saved.get(d.groupId) ?? 0) + s)
  }
  return saved
}

/**
 * Removed content the agent used later (issue 13 item 5). For every group whose parts the config
 * excluded, stubbed, trimmed or summarised away, the distinctive strings of the removed parts
 * (see `strings.ts`) are looked up in the assistant messages after the group — their text and
 * tool-call arguments, same thread — and one counts as used when the first later use comes at a
 * message before which the kept context (the projection) does not hold it. A string used later
 * that several removed groups held is credited to the nearest one before the use.
 *
 * A whole-run compaction decides once for the whole transcript, so the removal point is the
 * group's last message and "kept before L" reads the final projection up to message L.
 * Precision over recall: stoplists, shape rules and the coverage rule (a path is known when its
 * basename is) all err towards not reporting. Deterministic; the per-conversation index is
 * cached, so each run costs only what it removed.
 */
export function assessRisk(
  prepared: Prepared,
  result: RiskInput,
  options: RiskOptions = {},
): RiskReport {
  const { conversation, grouping } = prepared
  const index = riskIndexOf(conversation, grouping)
  const kept = new KeptContext(
    conversation,
    result.projection,
    index,
    options.phraseBudget ?? 50_000_000,
  )
  const uses = laterUsesOf(conversation, index)

  // Removed original parts (flat numbers), by group.
  const removed = new Map<number, number[]>()
  conversation.messages.forEach((msg, m) => {
    msg.parts.forEach((part, p) => {
      if (kept.keptParts.has(part)) return
      const g = grouping.groupOfMessage[m] as number
      const list = removed.get(g)
      const flat = (index.offset[m] as number) + p
      if (list) list.push(flat)
      else removed.set(g, [flat])
    })
  })

  const claims = new Map<string, Claim>()
  const claim = (display: string, later: number, group: number) => {
    const id = `${display}\u0000${later}`
    const seen = claims.get(id)
    if (!seen) claims.set(id, { display, later, group })
    else if ((index.groupEnd[group] as number) > (index.groupEnd[seen.group] as number))
      seen.group = group
  }

  for (const [g, flats] of removed) {
    const end = index.groupEnd[g] as number
    const first = grouping.groups[g]?.messages[0]
    const thread = first === undefined ? undefined : conversation.messages[first]?.sidechain
    // Keys in first-seen order over the group's removed parts, each claimed once.
    const keys = new Set<string>()
    for (const flat of flats) {
      for (const { key, later } of uses.keysOf(flat, end, thread)) {
        if (keys.has(key)) continue
        keys.add(key)
        if (!kept.knowsKey(key, later)) claim(key, later, g)
      }
    }
    for (const flat of flats) {
      for (const { phrase, later } of uses.phrasesOf(flat, end, thread)) {
        if (!kept.knowsPhrase(phrase.key, later)) claim(phrase.display, later, g)
      }
    }
  }

  // The top-level system prompt is a group without messages: only the strict fallback drops it.
  const systemGroup = grouping.groups.find((g) => g.kind === 'system' && g.messages.length === 0)
  if (systemGroup && conversation.system.length > 0 && result.projection.system.length === 0) {
    const find = new Finder(conversation.messages, index)
    for (const key of index.systemKeys) {
      if (!isEvidenceKey(key)) continue
      const later = find.keyUse(key, -1, undefined)
      if (later >= 0 && !kept.knowsKey(key, later)) claim(key, later, systemGroup.index)
    }
    for (const phrase of conversation.system.flatMap((p) => partPhrases(p))) {
      const later = find.phraseUse(phrase, -1, undefined)
      if (later >= 0 && !kept.knowsPhrase(phrase.key, later))
        claim(phrase.display, later, systemGroup.index)
    }
  }

  const byGroup = new Map<number, Claim[]>()
  for (const c of claims.values()) {
    const list = byGroup.get(c.group)
    if (list) list.push(c)
    else byGroup.set(c.group, [c])
  }
  const saved = savedByGroup(result.decisions)
  const items: RiskItem[] = []
  for (const g of [...byGroup.keys()].sort((a, b) => a - b)) {
    const evidence = distinct(byGroup.get(g) as Claim[], options.maxEvidence ?? 5)
    const later = (evidence[0] as Claim).later
    const end = index.groupEnd[g] as number
    const groupId = grouping.groups[g]?.id ?? ''
    items.push({
      groupId,
      laterMessageId: conversation.messages[later]?.id ?? '',
      evidence: evidence.map((c) => c.display),
      callsLater: (index.callsBefore[later + 1] as number) - (index.callsBefore[end + 1] as number),
      tokens: saved.get(groupId) ?? removedTokens(prepared, removed.get(g) ?? [], index),
    })
  }
  return {
    usedLater: items.length,
    tokens: items.reduce((a, i) => a + i.tokens, 0),
    items,
  }
}

/** Fallback when no decision names the group (a later round's ids): the removed parts' prices. */
function removedTokens(prepared: Prepared, flats: readonly number[], index: RiskIndex): number {
  let sum = 0
  for (const flat of flats) {
    const m = index.messageOf[flat] as number
    sum += prepared.partTokens[m]?.[flat - (index.offset[m] as number)] ?? 0
  }
  return sum
}
