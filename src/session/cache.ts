/**
 * The prepared conversation (groups, pairing, every part's price) and the per-message category
 * pricing, cached for the latest (conversation, counter): re-running with another config never
 * re-prices the conversation, and N configs on one conversation (sweep, compare) price it once.
 */
import { prepare, type Prepared } from '../engine/compaction/prepared.ts'
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import { BudgetPricing } from './budget.ts'
import { groupingOf } from './grouping.ts'

interface Entry {
  readonly conversation: Conversation
  readonly counter: TextCounter
  readonly prepared: Prepared
  readonly pricing: BudgetPricing
}

/**
 * Single-entry cache of the latest (conversation, counter): a new load or another tokenizer
 * replaces it, so the worker never holds two conversations' worth of prices.
 */
export class PreparedCache {
  private entry: Entry | null = null

  get(conversation: Conversation, counter: TextCounter): Entry {
    const e = this.entry
    if (e && e.conversation === conversation && e.counter === counter) return e
    const fresh: Entry = {
      conversation,
      counter,
      // The load built the grouping already (its report and facts): shared, not built again.
      prepared: prepare(conversation, counter, { grouping: groupingOf(conversation) }),
      pricing: new BudgetPricing(conversation, counter),
    }
    this.entry = fresh
    return fresh
  }

  /** Whether the next `get` for this pair is free (tests, and the worker's progress phases). */
  has(conversation: Conversation, counter: TextCounter): boolean {
    return this.entry?.conversation === conversation && this.entry.counter === counter
  }

  clear(): void {
    this.entry = null
  }
}

export const defaultCache = new PreparedCache()

/** The prepared conversation and pricing of (conversation, counter), from the default cache. */
export function preparedEntry(
  conversation: Conversation,
  counter: TextCounter,
): { readonly prepared: Prepared; readonly pricing: BudgetPricing } {
  return defaultCache.get(conversation, counter)
}

/** Drop the default cache (a new load: the old conversation's prices must not stay in memory). */
export function clearRunCache(): void {
  defaultCache.clear()
}
