import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { replay } from '../compaction/replay.ts'
import type { EngineConfig } from '../compaction/types.ts'
import type { Conversation, FormatId, Message, TextPart } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { estimateCounter } from '../tokens/index.ts'
import { OPENAI_MIN, OPENAI_STEP, PromptCache } from './cache.ts'
import { PRICE_TABLE, priceFor } from './prices.ts'
import { sessionCost } from './summary.ts'
import { cachingOf } from './tracker.ts'

const MIN = 60_000

describe('price table', () => {
  it('matches model ids by their longest pattern and applies overrides', () => {
    expect(priceFor('claude-sonnet-4-5-20250929')?.entry?.name).toMatch(/Sonnet/)
    expect(priceFor('claude-sonnet-4-5-20250929')?.price.cacheWrite5m).toBeCloseTo(3.75)
    expect(priceFor('claude-opus-4-5-20251101')?.price.input).toBe(5)
    expect(priceFor('claude-opus-4-1-20250805')?.price.input).toBe(15)
    expect(priceFor('gpt-5.3-codex')?.price.input).toBe(1.75)
    expect(priceFor('gpt-5-codex')?.price.input).toBe(1.25)
    expect(priceFor('gpt-5-mini')?.price.output).toBe(2)
    expect(priceFor('gpt-4o-mini-2024-07-18')?.entry?.name).toBe('GPT-4o mini')
    expect(priceFor('gemini-2.5-flash')?.entry?.provider).toBe('gemini')
    expect(priceFor('some-local-model')).toBeNull()
    const own = priceFor('some-local-model', { input: 1, cacheRead: 0.1, output: 2 })
    expect(own?.price).toMatchObject({ input: 1, cacheWrite5m: 1, cacheRead: 0.1, output: 2 })
    expect(priceFor('claude-sonnet-4-5', { input: 2 })?.price.input).toBe(2)
    for (const e of PRICE_TABLE) {
      expect(e.source).toMatch(/\./)
      expect(e.cacheRead).toBeLessThanOrEqual(e.input)
    }
  })
})

describe('prompt cache model', () => {
  it('Anthropic: reads the previous prompt, writes the rest; a long pause expires it (5 min TTL)', () => {
    const cache = new PromptCache({ provider: 'anthropic', ttl: '5m' })
    expect(cache.call(10_000, Infinity, 3_000, 0)).toEqual({ read: 0, write: 10_000, uncached: 0 })
    expect(cache.call(12_000, Infinity, 3_000, 1 * MIN)).toEqual({
      read: 10_000,
      write: 2_000,
      uncached: 0,
    })
    // Six minutes idle: everything expired.
    expect(cache.call(13_000, Infinity, 3_000, 7 * MIN).read).toBe(0)
    // With a 1 h TTL the same pause still reads.
    const hour = new PromptCache({ provider: 'anthropic', ttl: '1h' })
    hour.call(10_000, Infinity, 3_000, 0)
    expect(hour.call(12_000, Infinity, 3_000, 40 * MIN).read).toBe(10_000)
  })

  it('Anthropic: a change inside the cached prompt (a breakpoint moved by compaction) falls back to the stable prefix', () => {
    const cache = new PromptCache({ provider: 'anthropic', ttl: '5m' })
    cache.call(10_000, Infinity, 3_000, 0)
    cache.call(20_000, Infinity, 3_000, MIN)
    // Compaction rewrote the prompt from token 5,000 on: only the system/tools prefix is read.
    expect(cache.call(12_000, 5_000, 3_000, 2 * MIN)).toEqual({
      read: 3_000,
      write: 9_000,
      uncached: 0,
    })
    // The next call reads what that call wrote.
    expect(cache.call(13_000, Infinity, 3_000, 3 * MIN).read).toBe(12_000)
  })

  it('OpenAI: nothing under 1,024 tokens, then hits in steps of 128', () => {
    const cache = new PromptCache({ provider: 'openai', ttl: '5m' })
    cache.call(1_000, Infinity, 0, 0)
    expect(cache.call(1_500, Infinity, 0, MIN).read).toBe(0)
    expect(cache.call(3_000, Infinity, 0, 2 * MIN)).toEqual({
      read: OPENAI_MIN + Math.floor((1_500 - OPENAI_MIN) / OPENAI_STEP) * OPENAI_STEP,
      write: 0,
      uncached: 3_000 - 1_408,
    })
    // A prefix shared with a longer cached prompt is read up to the change, in 128-token steps.
    expect(cache.call(4_000, 2_000, 0, 3 * MIN).read).toBe(1_920)
  })

  it('caching is off when the transcript reports no cache read on any call, on otherwise', () => {
    const msgs = (reads: number[]): Conversation => ({
      meta: { format: 'claude-code' },
      system: [],
      tools: [],
      markers: [],
      messages: reads.map((r, i) => ({
        id: `a${i}`,
        role: 'assistant',
        parts: [],
        usage: { contextTokens: 100, cacheReadTokens: r, source: 't' },
      })),
    })
    expect(cachingOf(msgs([0, 0, 0])).on).toBe(false)
    expect(cachingOf(msgs([0, 0, 50])).on).toBe(true)
    expect(cachingOf(msgs([0, 0])).on).toBe(true)
    expect(cachingOf(msgs([0, 0, 0]), 'on').on).toBe(true)
  })
})

const text = (t: string): TextPart => ({ kind: 'text', text: t })
const words = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ')

/** A Claude session of tool calls a minute apart, each result large. */
function session(format: FormatId, calls: number, minutesApart = 1): Conversation {
  const messages: Message[] = [{ id: 'u0', role: 'user', parts: [text(words(200, 'p'))] }]
  for (let k = 0; k < calls; k++) {
    messages.push({
      id: `a${k}`,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      timestamp: new Date(Date.UTC(2026, 0, 1, 9, 0) + k * minutesApart * MIN).toISOString(),
      parts: [
        { kind: 'tool_call', callId: `c${k}`, name: 'Read', argsRaw: `{"file_path":"f${k}.ts"}` },
      ],
      usage: { outputTokens: 50, source: 't' },
    })
    messages.push({
      id: `t${k}`,
      role: 'tool',
      parts: [
        {
          kind: 'tool_result',
          callId: `c${k}`,
          content: [text(words(1500, `r${k}x`))],
          isError: false,
        },
      ],
    })
  }
  return {
    meta: { format, model: 'claude-sonnet-4-5-20250929' },
    system: [],
    tools: [],
    messages,
    markers: [],
  }
}

const config = (pipeline: EngineConfig['pipeline']): EngineConfig => ({
  window: { contextTokens: 200_000, reservedOutput: 0, buffer: 0 },
  protections: DEFAULT_PROTECTIONS,
  pipeline,
  fallback: { enabled: false, strict: false },
})

describe('session cost', () => {
  it('a compaction whose cache re-writes cost more than it saves is shown as costing more', async () => {
    const c = session('claude-code', 12)
    const p = prepare(c, estimateCounter)
    // Clear the oldest tool result once, late: it saves a few tokens and makes the provider
    // write everything after it again.
    const last = await replay(
      p,
      config([
        {
          strategy: 'clear-tool-uses',
          enabled: true,
          params: { keep: 10, triggerInputTokens: 24_000 },
        },
      ]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    const fired = last.filter((x) => x.fired.length > 0)
    expect(fired.length).toBeGreaterThan(0)
    const first = fired[0]
    expect(first?.rewriteTokens).toBeGreaterThan(0)
    expect(first?.cost.after).toBeGreaterThan(first?.cost.before ?? Infinity)
    const total = sessionCost(last)
    expect(total.cacheRewrites).toBeGreaterThan(0)
    expect(total.after).not.toBeNull()
    const firstBreakEven = total.breakEven[0]
    expect(firstBreakEven?.index).toBe(first?.index)
  })

  it('without compaction before and after are the same, and a long pause costs a re-write', async () => {
    const p = prepare(session('claude-code', 6, 10), estimateCounter)
    const points = await replay(p, config([]), { counter: estimateCounter }, STRATEGY_REGISTRY)
    for (const x of points) expect(x.cost.after).toBe(x.cost.before)
    // Ten minutes apart with a 5 min TTL: nothing is ever read back.
    expect(points.every((x) => x.cacheRead === 0)).toBe(true)
    const close = await replay(
      prepare(session('claude-code', 6, 1), estimateCounter),
      config([]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    expect(close.slice(1).every((x) => x.cacheRead > 0)).toBe(true)
    expect(sessionCost(close).before ?? 0).toBeLessThan(sessionCost(points).before ?? 0)
  })
})
