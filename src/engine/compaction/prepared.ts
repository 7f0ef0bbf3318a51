import { mapItems } from '../arrays.ts'
import { buildGroups, type Grouping } from '../groups.ts'
import type { Conversation, Message, Part } from '../model.ts'
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

/**
 * Encrypted reasoning cannot be tokenized, but the call that produced it reported how many
 * reasoning tokens it spent (Responses API / Codex `reasoning_output_tokens`): that is what the
 * item costs when it is sent back. Shared across the message's encrypted reasoning parts.
 */
function withReportedReasoning(m: Message, prices: number[]): number[] {
  const reported = m.usage?.reasoningTokens
  if (m.role !== 'assistant' || reported === undefined || !(reported >= 0)) return prices
  const encrypted: number[] = []
  m.parts.forEach((p, i) => {
    if (p.kind === 'reasoning' && p.opaque?.label === 'encrypted reasoning') encrypted.push(i)
  })
  if (encrypted.length === 0) return prices
  const share = Math.round(reported / encrypted.length)
  for (const i of encrypted) prices[i] = share
  return prices
}

export const partKey = (message: number, part: number): string => `${message}:${part}`

export function prepare(
  conversation: Conversation,
  counter: TextCounter,
  options: {
    family?: ModelFamily
    framing?: Framing
    grouping?: Grouping
    /**
     * An earlier preparation (e.g. of the conversation a projection came from): messages that are
     * the very same objects keep their prices when counter, family and framing are the same.
     */
    reuse?: Prepared
  } = {},
): Prepared {
  const grouping = options.grouping ?? buildGroups(conversation)
  const family = options.family ?? modelFamily(conversation.meta.model)
  const framing = options.framing ?? DEFAULT_FRAMING
  const partTokens: number[][] = []
  const messageTokens: number[] = []
  const partPrice = new Map<Part, number>()
  const old = options.reuse
  const reusable =
    old && old.counter === counter && old.family === family && old.framing === framing
      ? new Map(old.conversation.messages.map((m, i) => [m, i]))
      : null
  for (const m of conversation.messages) {
    const at = reusable?.get(m)
    const prices =
      at !== undefined && old
        ? [...(old.partTokens[at] as readonly number[])]
        : withReportedReasoning(
            m,
            mapItems(m.parts, (p) =>
              pricePart(p, m.role, counter, m.model ? modelFamily(m.model) : family, framing),
            ),
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

/**
 * Flat numeric addresses for the parts of a prepared conversation, built once per `Prepared` and
 * shared by every run over it: `offset[m] + p` numbers part `p` of message `m`, so hot lookups
 * (overrides, call/result of a part) are array reads instead of string-keyed map lookups.
 */
export interface PartIndex {
  /** Index of each message's first part in the flat numbering (length: messages + 1). */
  readonly offset: Int32Array
  /** Flat part → index into `pairing.calls`, or -1. */
  readonly callAt: Int32Array
  /** Flat part → index into `pairing.results`, or -1. */
  readonly resultAt: Int32Array
  /** Message index → the latest assistant message at or before it, or -1. */
  readonly lastAssistant: Int32Array
}

const partIndexes = new WeakMap<Prepared, PartIndex>()

export function partIndexOf(prepared: Prepared): PartIndex {
  const hit = partIndexes.get(prepared)
  if (hit) return hit
  const { messages } = prepared.conversation
  const offset = new Int32Array(messages.length + 1)
  for (let m = 0; m < messages.length; m++)
    offset[m + 1] = (offset[m] as number) + (messages[m]?.parts.length ?? 0)
  const total = offset[messages.length] as number
  const callAt = new Int32Array(total).fill(-1)
  const resultAt = new Int32Array(total).fill(-1)
  const { calls, results } = prepared.grouping.pairing
  const flat = (m: number, p: number) =>
    m >= 0 && m < messages.length && p >= 0 && p < (messages[m]?.parts.length ?? 0)
      ? (offset[m] as number) + p
      : -1
  // Same answer as the string-keyed maps: on a repeated address the last entry wins.
  calls.forEach((c, i) => {
    const k = flat(c.message, c.part)
    if (k >= 0) callAt[k] = i
  })
  results.forEach((r, i) => {
    const k = flat(r.message, r.part)
    if (k >= 0) resultAt[k] = i
  })
  const lastAssistant = new Int32Array(messages.length)
  let last = -1
  for (let m = 0; m < messages.length; m++) {
    if (messages[m]?.role === 'assistant') last = m
    lastAssistant[m] = last
  }
  const index: PartIndex = { offset, callAt, resultAt, lastAssistant }
  partIndexes.set(prepared, index)
  return index
}

/** Flat number of part `part` of message `message`, or -1 when there is no such part. */
export function flatPart(index: PartIndex, message: number, part: number): number {
  if (!(message >= 0 && message < index.offset.length - 1)) return -1
  const start = index.offset[message] as number
  if (!(part >= 0 && part < (index.offset[message + 1] as number) - start)) return -1
  return start + part
}
