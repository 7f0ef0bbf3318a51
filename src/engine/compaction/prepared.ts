import { buildGroups, type Grouping } from '../groups.ts'
import type { Conversation, Part } from '../model.ts'
import {
  DEFAULT_FRAMING,
  modelFamily,
  pricePart,
  priceStatic,
  type Framing,
  type ModelFamily,
} from '../tokens/pricing.ts'
import type { TextCounter } from '../tokens/types.ts'

/**
 * A conversation with everything a run needs precomputed once: groups, pairing and the token
 * price of every part. Runs (and every config edit in the app) reuse it, so re-planning never
 * re-tokenizes anything but the replacement parts it creates.
 */
export interface Prepared {
  readonly conversation: Conversation
  readonly grouping: Grouping
  readonly counter: TextCounter
  readonly family: ModelFamily
  readonly framing: Framing
  /** Tokens of each part of each message, as the source has it. */
  readonly partTokens: readonly (readonly number[])[]
  /** Price of every original part by object identity (recounts of a projection reuse it). */
  readonly partPrice: ReadonlyMap<Part, number>
  /** Tokens of each message (framing + parts). */
  readonly messageTokens: readonly number[]
  /** Tool definitions + per-request framing: always in the context, never compacted. */
  readonly staticTokens: number
  /** The top-level system prompt (its group can only be dropped by the strict fallback). */
  readonly systemTokens: number
  /** Message index → indexes into `grouping.pairing.calls` / `.results` of its parts. */
  readonly callAt: ReadonlyMap<string, number>
  readonly resultAt: ReadonlyMap<string, number>
  /** Every message id, to keep generated ids unique. */
  readonly messageIds: ReadonlySet<string>
  /**
   * Parts that stubs from an earlier compaction name as their newer copy (`meta.supersededBy`):
   * they start protected, which keeps a second run on a projection idempotent.
   */
  readonly newestCopies: readonly {
    readonly source: { readonly message: number; readonly part: number }
    readonly target: { readonly message: number; readonly part: number }
  }[]
}

export const partKey = (message: number, part: number): string => `${message}:${part}`

export function prepare(
  conversation: Conversation,
  counter: TextCounter,
  options: { family?: ModelFamily; framing?: Framing; grouping?: Grouping } = {},
): Prepared {
  const grouping = options.grouping ?? buildGroups(conversation)
  const family = options.family ?? modelFamily(conversation.meta.model)
  const framing = options.framing ?? DEFAULT_FRAMING
  const partTokens: number[][] = []
  const messageTokens: number[] = []
  const partPrice = new Map<Part, number>()
  for (const m of conversation.messages) {
    const prices = m.parts.map((p) =>
      pricePart(p, m.role, counter, m.model ? modelFamily(m.model) : family, framing),
    )
    partTokens.push(prices)
    m.parts.forEach((part, i) => partPrice.set(part, prices[i] as number))
    messageTokens.push(prices.reduce((a, b) => a + b, framing.perMessage))
  }
  const stat = priceStatic(conversation, counter)
  const callAt = new Map<string, number>()
  grouping.pairing.calls.forEach((c, i) => callAt.set(partKey(c.message, c.part), i))
  const resultAt = new Map<string, number>()
  grouping.pairing.results.forEach((r, i) => resultAt.set(partKey(r.message, r.part), i))
  return {
    conversation,
    grouping,
    counter,
    family,
    framing,
    partTokens,
    partPrice,
    messageTokens,
    staticTokens: stat.tools + framing.perConversation,
    systemTokens: stat.system,
    callAt,
    resultAt,
    messageIds: new Set(conversation.messages.map((m) => m.id)),
    newestCopies: findNewestCopies(conversation),
  }
}

type Ref = { message: number; part: number }

function findNewestCopies(conversation: Conversation): { source: Ref; target: Ref }[] {
  let indexOf: Map<string, number> | null = null
  const out: { source: Ref; target: Ref }[] = []
  conversation.messages.forEach((m, mi) => {
    m.parts.forEach((p, pi) => {
      const list = p.meta?.supersededBy
      if (!Array.isArray(list)) return
      for (const by of list as { messageId?: unknown; part?: unknown }[]) {
        if (typeof by?.messageId !== 'string' || typeof by.part !== 'number') continue
        indexOf ??= new Map(conversation.messages.map((x, i) => [x.id, i]))
        const target = indexOf.get(by.messageId)
        if (target !== undefined) {
          out.push({
            source: { message: mi, part: pi },
            target: { message: target, part: by.part },
          })
        }
      }
    })
  })
  return out
}
