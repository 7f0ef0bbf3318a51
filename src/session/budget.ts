/**
 * Budget categories of a conversation and of its projection, priced the way
 * `inspectConversation` prices them, with stubs, trims and inserted summaries in their own
 * `stubs` category. Split from run.ts to keep files small.
 */
import { TOKEN_CATEGORIES } from '../engine/inspect.ts'
import type { Conversation, Message, Part } from '../engine/model.ts'
import {
  DEFAULT_FRAMING,
  modelFamily,
  priceMessage,
  priceStatic,
  type Framing,
  type ModelFamily,
} from '../engine/tokens/pricing.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import type { BudgetCategories } from './types.ts'

/** The budget category that holds stubs, trims and inserted summaries after a run. */
export const STUBS = 'stubs'

/** Tokens of one message split by budget category. */
interface Priced {
  readonly total: number
  readonly byCategory: Readonly<Record<string, number>>
}

const isCompacted = (p: Part): boolean => p.meta?.compactedBy !== undefined

/**
 * Prices messages by budget category the way `inspectConversation` does (conversation-wide model
 * family and framing), caching by message identity: a projection shares every unchanged message
 * object with the original, so only changed messages and inserted summaries are priced again.
 */
export class BudgetPricing {
  private readonly plain = new WeakMap<Message, Priced>()
  /**
   * Projected prices of messages with compaction output: a run's summary prices its projection
   * twice (the budget's categories and the per-group tokens), and messages are never mutated.
   */
  private readonly compacted = new WeakMap<Message, Priced>()
  private readonly family: ModelFamily
  private readonly framing: Framing
  private staticCache: { system: number; tools: number } | null = null
  private readonly conversation: Conversation
  private readonly counter: TextCounter

  constructor(
    conversation: Conversation,
    counter: TextCounter,
    options: { family?: ModelFamily; framing?: Framing } = {},
  ) {
    this.conversation = conversation
    this.counter = counter
    this.family = options.family ?? modelFamily(conversation.meta.model)
    this.framing = options.framing ?? DEFAULT_FRAMING
  }

  /** Static tokens of the original conversation (system prompt, tool definitions). */
  get static(): { system: number; tools: number } {
    return (this.staticCache ??= priceStatic(this.conversation, this.counter))
  }

  /** The message as `inspectConversation` prices it. */
  message(m: Message): Priced {
    let p = this.plain.get(m)
    if (!p) {
      const priced = priceMessage(m, this.counter, { family: this.family, framing: this.framing })
      p = { total: priced.total, byCategory: priced.byCategory }
      this.plain.set(m, p)
    }
    return p
  }

  /**
   * The message with compaction output moved to `stubs`: the whole of an inserted summary
   * (`summaryOf`), and every part a strategy replaced (`meta.compactedBy`).
   */
  projected(m: Message): Priced {
    if (m.summaryOf) {
      const p = this.message(m)
      return { total: p.total, byCategory: { [STUBS]: p.total } }
    }
    if (!m.parts.some(isCompacted)) return this.message(m)
    const hit = this.compacted.get(m)
    if (hit) return hit
    const options = { family: this.family, framing: this.framing }
    const kept = priceMessage(
      { ...m, parts: m.parts.filter((p) => !isCompacted(p)) },
      this.counter,
      options,
    )
    // The framing of the message itself stays in `framing`; the replaced parts go to `stubs`.
    const moved =
      priceMessage({ ...m, parts: m.parts.filter(isCompacted) }, this.counter, options).total -
      this.framing.perMessage
    const priced = { total: kept.total + moved, byCategory: { ...kept.byCategory, [STUBS]: moved } }
    this.compacted.set(m, priced)
    return priced
  }

  /**
   * Tokens by category of a whole conversation: `inspectConversation(…).tokens.byCategory` plus
   * a `stubs` category (0 unless `stubs` is set, when compaction output is moved there).
   */
  budget(conversation: Conversation, stubs: boolean): Record<string, number> {
    const out: Record<string, number> = Object.fromEntries(TOKEN_CATEGORIES.map((c) => [c, 0]))
    out[STUBS] = 0
    // A projection shares the original's system blocks and tools unless the fallback dropped them.
    const same =
      conversation.system === this.conversation.system &&
      conversation.tools === this.conversation.tools
    const stat = same ? this.static : priceStatic(conversation, this.counter)
    out.system = (out.system ?? 0) + stat.system
    out.tools = (out.tools ?? 0) + stat.tools
    out.framing = (out.framing ?? 0) + this.framing.perConversation
    for (const m of conversation.messages) {
      const p = stubs ? this.projected(m) : this.message(m)
      for (const [cat, n] of Object.entries(p.byCategory)) out[cat] = (out[cat] ?? 0) + n
    }
    return out
  }
}

export const sumCategories = (budget: BudgetCategories): number =>
  Object.values(budget).reduce((a, b) => a + b, 0)
