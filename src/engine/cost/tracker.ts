import type { CallFigure } from '../accounting/types.ts'
import type { ContextPlan } from '../accounting/plan.ts'
import type { WorkingView } from '../compaction/view.ts'
import type { Conversation } from '../model.ts'
import { PromptCache, type CacheSettings, type CacheTtl, type CallCache } from './cache.ts'
import {
  priceFor,
  type MatchedPrice,
  type Price,
  type PriceOverrides,
  type Provider,
} from './prices.ts'
import { withFields } from '../objects.ts'

/** The config's `pricing`: the user's prices (per million tokens) and cache settings. */
export interface PricingConfig extends PriceOverrides {
  /** Anthropic cache TTL of the agent's breakpoints (default 5 minutes). */
  readonly cacheTtl?: CacheTtl
  /**
   * Prompt caching: `auto` (default) models the provider's cache unless the transcript reports a
   * cache read of 0 on every one of at least three calls (caching was off for that session, as on
   * some gateways); `on` / `off` force it.
   */
  readonly caching?: 'auto' | 'on' | 'off'
}

/** Calls that must report a cache read before `auto` may conclude caching was off. */
const MIN_CALLS_FOR_OFF = 3

/** Is prompt caching on for this session? With the reason, for the UI and the report. */
export function cachingOf(
  conversation: Conversation,
  setting: PricingConfig['caching'] = 'auto',
): { readonly on: boolean; readonly why: string } {
  if (setting === 'on') return { on: true, why: 'on (set in the config)' }
  if (setting === 'off') return { on: false, why: 'off (set in the config)' }
  let reported = 0
  let nonZero = 0
  for (const m of conversation.messages) {
    const r = m.role === 'assistant' ? m.usage?.cacheReadTokens : undefined
    if (r === undefined) continue
    reported++
    if (r > 0) nonZero++
  }
  if (reported >= MIN_CALLS_FOR_OFF && nonZero === 0)
    return {
      on: false,
      why: `off — inferred: the transcript reports no cache read on any of its ${reported} calls`,
    }
  return { on: true, why: "on — the provider's documented caching" }
}

/** What one model call costs before and after compaction, and what the cache did. */
export interface CallCost {
  /** USD, null when no price is known for the call's model. */
  readonly before: number | null
  readonly after: number | null
  /** Modelled tokens read from the cache, uncompacted context. */
  readonly cacheRead: number
  /** The same under the config. */
  readonly cacheReadAfter: number
  /** Tokens written (or sent uncached) again because compaction changed the prompt at this call. */
  readonly rewriteTokens: number
  /** USD those re-writes cost over reading them from the cache. */
  readonly rewriteCost: number | null
  /** The transcript's cache read for this call, when reported. */
  readonly reportedCacheRead?: number
}

const providerOf = (plan: ContextPlan): Provider | null =>
  plan.rules.provider === 'other' ? null : plan.rules.provider

const usd = (tokens: number, perMillion: number) => (tokens * perMillion) / 1e6

function callPrice(c: CallCache, price: Price, ttl: CacheTtl, outputTokens: number): number {
  const write = ttl === '1h' ? price.cacheWrite1h : price.cacheWrite5m
  return (
    usd(c.read, price.cacheRead) +
    usd(c.write, write) +
    usd(c.uncached, price.input) +
    usd(outputTokens, price.output)
  )
}

/**
 * What `observe` reads of each message, by message index, once per conversation: a replay observes
 * every model call, and reading the message object (its usage, its timestamp parsed anew) was most
 * of the tracker's own time, and a cache miss per call on a long session (issue 14).
 */
interface CallFacts {
  /** `Date.parse` of the timestamp, NaN when there is none. */
  readonly time: Float64Array
  /** The cache read the transcript reported, NaN when it reported none. */
  readonly cacheRead: Float64Array
  readonly output: Float64Array
  /** The model the call names, else the conversation's. */
  readonly model: readonly string[]
}

const callFacts = new WeakMap<Conversation, CallFacts>()

function callFactsOf(conversation: Conversation): CallFacts {
  const hit = callFacts.get(conversation)
  if (hit) return hit
  const n = conversation.messages.length
  const facts: CallFacts = {
    time: new Float64Array(n),
    cacheRead: new Float64Array(n),
    output: new Float64Array(n),
    model: conversation.messages.map((m) => m.model ?? conversation.meta.model ?? ''),
  }
  conversation.messages.forEach((m, i) => {
    facts.time[i] = m.timestamp ? Date.parse(m.timestamp) : Number.NaN
    facts.cacheRead[i] = m.usage?.cacheReadTokens ?? Number.NaN
    facts.output[i] = m.usage?.outputTokens ?? 0
  })
  callFacts.set(conversation, facts)
  return facts
}

/**
 * Prices every call of a replay with a cache model per context (thread), uncompacted and under the
 * config side by side. `observe` is called once per call, in order, after the pipeline ran.
 */
export class CostTracker {
  private readonly caches = new Map<number, { before: PromptCache; after: PromptCache }>()
  private readonly lastCall = new Map<number, number>()
  private readonly basePrefix = new Map<number, number>()
  private readonly plan: ContextPlan
  private readonly conversation: Conversation
  private readonly settings: CacheSettings | null
  private readonly ttl: CacheTtl
  private readonly overrides: PriceOverrides
  private readonly prices = new Map<string, MatchedPrice | null>()

  constructor(conversation: Conversation, plan: ContextPlan, pricing: PricingConfig = {}) {
    this.conversation = conversation
    this.plan = plan
    this.ttl = pricing.cacheTtl ?? '5m'
    const { cacheTtl: _ttl, caching: _caching, ...overrides } = pricing
    void [_ttl, _caching]
    this.overrides = overrides
    const provider = providerOf(plan) ?? this.providerOfModel()
    this.settings = provider ? { provider, ttl: this.ttl } : null
    this.caching = cachingOf(conversation, pricing.caching)
    this.facts = callFactsOf(conversation)
  }

  /** Whether prompt caching is modelled for this session, and why. */
  readonly caching: { readonly on: boolean; readonly why: string }

  /** A provider from the price table when the format did not say (an OpenAI-compatible log). */
  private providerOfModel(): Provider | null {
    return priceFor(this.conversation.meta.model)?.entry?.provider ?? null
  }

  /** The price of a model (cached per model id). */
  private priceOf(model: string): MatchedPrice | null {
    if (!this.prices.has(model)) this.prices.set(model, priceFor(model, this.overrides))
    return this.prices.get(model) ?? null
  }

  private readonly facts: CallFacts

  private cachesOf(thread: number) {
    let c = this.caches.get(thread)
    if (!c && this.settings) {
      // Not a leading spread: that gave each file's settings a map of its own (see objects.ts).
      const settings: CacheSettings = withFields(this.settings, { enabled: this.caching.on })
      c = { before: new PromptCache(settings), after: new PromptCache(settings) }
      this.caches.set(thread, c)
    }
    return c
  }

  /**
   * The cost of call `figure`: `before` is a view with no decisions, `after` the view under the
   * config, both advanced to this call; `changed` is the first message a decision at this call
   * changed (Infinity when none did).
   */
  observe(figure: CallFigure, before: WorkingView, after: WorkingView, changed: number): CallCost {
    const call = figure.index
    const facts = this.facts
    const thread = this.plan.threadOf[call] as number
    const previous = this.lastCall.get(thread) ?? -1
    this.lastCall.set(thread, call)
    const reportedCacheRead = facts.cacheRead[call] as number
    const reported = Number.isNaN(reportedCacheRead) ? {} : { reportedCacheRead }
    const caches = this.cachesOf(thread)
    if (!caches) {
      return {
        before: null,
        after: null,
        cacheRead: 0,
        cacheReadAfter: 0,
        rewriteTokens: 0,
        rewriteCost: null,
        ...reported,
      }
    }
    // What changed in the prompt since this thread's previous call: reasoning the provider stopped
    // counting (at a new user turn), or a restart by an upstream compaction.
    let strippedFrom = Infinity
    for (let s = previous + 1; s < figure.index; s++) {
      const list = this.plan.stripAt.get(s)
      if (list && list.length > 0 && this.plan.threadOf[s] === thread)
        strippedFrom = Math.min(strippedFrom, this.plan.messageOfPart[list[0] as number] as number)
    }
    // The part that never changes: the thread's base hidden prefix (system prompt, tools) with the
    // logged tools and system. Later prefix steps are unlogged content inside the conversation.
    const base = Math.min(this.basePrefix.get(thread) ?? figure.prefix, figure.prefix)
    this.basePrefix.set(thread, base)
    const stable = before.promptOffsetOf(-1) - figure.prefix + base
    const changeIn = (view: WorkingView, from: number) =>
      figure.upstreamCompaction ? stable : from === Infinity ? Infinity : view.promptOffsetOf(from)
    const time = facts.time[call] as number
    const firstBefore = changeIn(before, strippedFrom)
    const beforeCache = caches.before.call(before.contextTokens, firstBefore, stable, time)
    const withoutCompaction = changeIn(after, strippedFrom)
    const firstAfter = Math.min(withoutCompaction, changeIn(after, changed))
    const afterTotal = after.contextTokens
    const stableAfter = after.promptOffsetOf(-1) - figure.prefix + base
    // Had the config not changed the prompt here, the cache would have held up to `ideal.read`
    // (asked with an unbounded prompt: the compacted one may be shorter than what was cached).
    const ideal =
      firstAfter < withoutCompaction
        ? caches.after.call(Number.MAX_SAFE_INTEGER, withoutCompaction, stableAfter, time, false)
        : null
    const afterCache = caches.after.call(afterTotal, firstAfter, stableAfter, time)
    // What was cached and is still in the prompt, but must be written again.
    const rewriteTokens = ideal
      ? Math.max(0, Math.min(ideal.read, afterTotal) - afterCache.read)
      : 0
    const matched = this.priceOf(facts.model[call] ?? '')
    const output = facts.output[call] as number
    if (!matched) {
      return {
        before: null,
        after: null,
        cacheRead: Math.round(beforeCache.read),
        cacheReadAfter: Math.round(afterCache.read),
        rewriteTokens: Math.round(rewriteTokens),
        rewriteCost: null,
        ...reported,
      }
    }
    const { price } = matched
    const writePrice =
      this.settings?.provider === 'anthropic'
        ? this.ttl === '1h'
          ? price.cacheWrite1h
          : price.cacheWrite5m
        : price.input
    return {
      before: callPrice(beforeCache, price, this.ttl, output),
      after: callPrice(afterCache, price, this.ttl, output),
      cacheRead: Math.round(beforeCache.read),
      cacheReadAfter: Math.round(afterCache.read),
      rewriteTokens: Math.round(rewriteTokens),
      rewriteCost: usd(rewriteTokens, writePrice - price.cacheRead),
      ...reported,
    }
  }
}
