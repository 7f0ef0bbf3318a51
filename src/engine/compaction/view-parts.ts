import type { Message, Part, Role } from '../model.ts'
import type { PartRef } from '../pairing.ts'
import { pricePart, type ModelFamily } from '../tokens/pricing.ts'
import type { Prepared } from './prepared.ts'

/** The last price of a part object, with what it was priced under (parts are immutable). */
const prices = new WeakMap<
  Part,
  {
    readonly role: Role
    readonly family: unknown
    readonly counter: unknown
    readonly framing: unknown
    readonly tokens: number
  }
>()

/** `pricePart` of a candidate part under a prepared conversation, remembered per part object. */
export function memoPrice(p: Prepared, part: Part, role: Role, family: ModelFamily): number {
  // Strategies that memoise their replacement parts (one object per original part and params)
  // get the price of the very same object back without tokenizing it again.
  const hit = prices.get(part)
  if (
    hit &&
    hit.role === role &&
    hit.family === family &&
    hit.counter === p.counter &&
    hit.framing === p.framing
  )
    return hit.tokens
  const tokens = pricePart(part, role, p.counter, family, p.framing)
  prices.set(part, { role, family, counter: p.counter, framing: p.framing, tokens })
  return tokens
}

/**
 * `[strategy]`, one shared array per strategy id: the first override of a part names one strategy,
 * and overrides are never mutated, so thousands of replacements per round need not allocate it.
 */
const singleBy = new Map<string, readonly string[]>()
export function byOne(strategy: string): readonly string[] {
  let by = singleBy.get(strategy)
  if (!by) {
    by = [strategy]
    singleBy.set(strategy, by)
  }
  return by
}

/** Shared empty list of newer copies (overrides are never mutated). */
export const NO_REFS: readonly PartRef[] = []

/** `[...earlier, newer]` without the spread's iteration (thousands of supersession stubs per round). */
export function withNewer(
  earlier: readonly PartRef[] | undefined,
  newer: PartRef,
): readonly PartRef[] {
  if (!earlier || earlier.length === 0) return [newer]
  const out = earlier.slice()
  out.push(newer)
  return out
}

/** A replaced part: what it is now, what it costs, and who changed it (for the projection). */
export interface Override {
  readonly part: Part | null
  readonly tokens: number
  /** Strategies that changed it, in order. */
  readonly by: readonly string[]
  /** Newer copies that stubs of this part defer to. */
  readonly newer: readonly PartRef[]
}

/** A summary inserted by a strategy, placed next to an anchor group. */
export interface InsertedSummary {
  readonly message: Message
  readonly tokens: number
  /** Group index the summary is placed next to. */
  readonly anchor: number
  readonly position: 'before' | 'after'
  /** Group indexes it replaces. */
  readonly covers: readonly number[]
}
