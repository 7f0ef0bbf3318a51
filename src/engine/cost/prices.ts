/**
 * List prices per million tokens, per model family, as the providers publish them. Matched to the
 * transcript's model id (the longest matching pattern wins); the user can override every figure in
 * the config (`pricing`), e.g. for a negotiated rate or a model not listed here.
 *
 * Sources (read 2026-11-25): Anthropic — platform.claude.com/docs/en/about-claude/pricing ("Model
 * pricing": base input, 5m and 1h cache writes, cache hits, output); OpenAI — openai.com/api/pricing
 * (input, cached input, output; no cache-write premium); Google — ai.google.dev/gemini-api/docs/pricing
 * (input, context-caching price, output; prompts ≤ 200k tokens). Check them before trusting a figure.
 */

import { withFields } from '../objects.ts'

export type Provider = 'anthropic' | 'openai' | 'gemini'

export interface Price {
  /** USD per million uncached input tokens. */
  readonly input: number
  /** USD per million tokens written to the cache (5-minute TTL); equals `input` where writes cost no extra. */
  readonly cacheWrite5m: number
  /** USD per million tokens written with a 1-hour TTL (Anthropic), else `cacheWrite5m`. */
  readonly cacheWrite1h: number
  /** USD per million tokens read from the cache. */
  readonly cacheRead: number
  /** USD per million output tokens. */
  readonly output: number
}

export interface PriceEntry extends Price {
  /** A readable name for the UI ("Claude Sonnet 4.5"). */
  readonly name: string
  readonly provider: Provider
  /** Lower-case substrings of model ids this entry prices ("claude-sonnet-4-5"). */
  readonly match: readonly string[]
  /** The provider page the figures come from, and when they were read. */
  readonly source: string
  readonly checked: string
}

const ANTHROPIC = 'platform.claude.com/docs/en/about-claude/pricing'
const OPENAI = 'openai.com/api/pricing'
const GOOGLE = 'ai.google.dev/gemini-api/docs/pricing'
const CHECKED = '2026-11-25'

/** Anthropic prices: writes 1.25× (5 min) and 2× (1 h) the input price, reads 0.1×. */
function claude(
  name: string,
  match: string[],
  input: number,
  output: number,
  read = input / 10,
): PriceEntry {
  return {
    name,
    provider: 'anthropic',
    match,
    input,
    cacheWrite5m: input * 1.25,
    cacheWrite1h: input * 2,
    cacheRead: read,
    output,
    source: ANTHROPIC,
    checked: CHECKED,
  }
}

/** OpenAI and Google: caching is automatic, writes cost the input price. */
function automatic(
  provider: 'openai' | 'gemini',
  name: string,
  match: string[],
  input: number,
  cacheRead: number,
  output: number,
): PriceEntry {
  return {
    name,
    provider,
    match,
    input,
    cacheWrite5m: input,
    cacheWrite1h: input,
    cacheRead,
    output,
    source: provider === 'openai' ? OPENAI : GOOGLE,
    checked: CHECKED,
  }
}

export const PRICE_TABLE: readonly PriceEntry[] = [
  claude(
    'Claude Opus 4.5+',
    ['claude-opus-4-5', 'claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5'],
    5,
    25,
  ),
  claude(
    'Claude Opus 4 / 4.1',
    ['claude-opus-4', 'claude-4-opus', 'claude-opus-4-1', 'claude-opus-4-0'],
    15,
    75,
  ),
  claude('Claude Opus 3', ['claude-3-opus'], 15, 75),
  claude('Claude Sonnet 5', ['claude-sonnet-5'], 2, 10),
  claude(
    'Claude Sonnet 3.7–4.6',
    ['claude-sonnet-4', 'claude-4-sonnet', 'claude-3-7-sonnet', 'claude-3-5-sonnet'],
    3,
    15,
  ),
  claude('Claude Haiku 4.5', ['claude-haiku-4', 'claude-4-haiku'], 1, 5),
  claude('Claude Haiku 3.5', ['claude-3-5-haiku'], 0.8, 4),
  claude('Claude Haiku 3', ['claude-3-haiku'], 0.25, 1.25, 0.03),
  automatic('openai', 'GPT-5.2 / 5.3 (Codex)', ['gpt-5.2', 'gpt-5.3'], 1.75, 0.175, 14),
  automatic(
    'openai',
    'GPT-5 / 5.1 (Codex)',
    ['gpt-5', 'gpt-5.1', 'gpt-5-codex', 'gpt-5.1-codex'],
    1.25,
    0.125,
    10,
  ),
  automatic('openai', 'GPT-5 mini', ['gpt-5-mini', 'gpt-5.1-mini'], 0.25, 0.025, 2),
  automatic('openai', 'GPT-5 nano', ['gpt-5-nano'], 0.05, 0.005, 0.4),
  automatic('openai', 'GPT-4.1', ['gpt-4.1'], 2, 0.5, 8),
  automatic('openai', 'GPT-4.1 mini', ['gpt-4.1-mini'], 0.4, 0.1, 1.6),
  automatic('openai', 'GPT-4o', ['gpt-4o'], 2.5, 1.25, 10),
  automatic('openai', 'GPT-4o mini', ['gpt-4o-mini'], 0.15, 0.075, 0.6),
  automatic('openai', 'o3', ['o3'], 2, 0.5, 8),
  automatic('openai', 'o4-mini', ['o4-mini'], 1.1, 0.275, 4.4),
  automatic(
    'gemini',
    'Gemini 2.5 Pro (≤ 200k)',
    ['gemini-2.5-pro', 'gemini-3-pro'],
    1.25,
    0.125,
    10,
  ),
  automatic('gemini', 'Gemini 2.5 Flash', ['gemini-2.5-flash', 'gemini-3-flash'], 0.3, 0.03, 2.5),
  automatic('gemini', 'Gemini 2.0 Flash', ['gemini-2.0-flash'], 0.1, 0.025, 0.4),
]

/** The user's figures (config `pricing`): each replaces the table's. */
export type PriceOverrides = Partial<Price>

export interface MatchedPrice {
  readonly price: Price
  /** The table entry used, or null when only the user's figures price the call. */
  readonly entry: PriceEntry | null
  /** The user replaced at least one figure. */
  readonly overridden: boolean
}

/**
 * The price of a model id: the table entry whose longest pattern occurs in the id, with the user's
 * overrides on top. Null when nothing is known (no entry and no complete override).
 */
export function priceFor(
  model: string | undefined,
  overrides: PriceOverrides = {},
): MatchedPrice | null {
  const id = (model ?? '').toLowerCase()
  let best: PriceEntry | null = null
  let bestLength = 0
  for (const entry of PRICE_TABLE)
    for (const m of entry.match)
      if (m.length > bestLength && id.includes(m)) {
        best = entry
        bestLength = m.length
      }
  const overridden = Object.values(overrides).some((v) => v !== undefined)
  if (!best) {
    const { input, cacheWrite5m, cacheWrite1h, cacheRead, output } = overrides
    if (input === undefined || cacheRead === undefined || output === undefined) return null
    const write = cacheWrite5m ?? input
    return {
      price: { input, cacheWrite5m: write, cacheWrite1h: cacheWrite1h ?? write, cacheRead, output },
      entry: null,
      overridden: true,
    }
  }
  const { name: _n, provider: _p, match: _m, source: _s, checked: _c, ...base } = best
  void [_n, _p, _m, _s, _c]
  // withFields, not a leading spread: one map for every file's prices (see objects.ts).
  const price: Price = withFields(base, definedOnly(overrides))
  return { price, entry: best, overridden }
}

function definedOnly(o: PriceOverrides): Partial<Price> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(o)) if (typeof v === 'number') out[k] = v
  return out as Partial<Price>
}
