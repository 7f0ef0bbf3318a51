import { describe, expect, it } from 'vitest'
import type { Part } from '../model.ts'
import { DEFAULT_FRAMING } from '../tokens/pricing.ts'
import { estimateCounter } from '../tokens/index.ts'
import { collapseToolResultsStrategy } from './collapse-tool-results.ts'
import { TRUNCATION_MARKER } from './collapse-tool-results/digest.ts'
import {
  call,
  context,
  conv,
  messages,
  project,
  result,
  runStrategy,
  transcript,
  type Setup,
} from './truncation/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

/** Realistic pricing: chars/4 and the default per-message / per-call framing. */
const real: Setup = { counter: estimateCounter, framing: DEFAULT_FRAMING }
const run = (c: ReturnType<typeof conv>, params: Record<string, unknown> = {}, setup: Setup = {}) =>
  runStrategy(collapseToolResultsStrategy, c, params, { ...real, ...setup })

function twoCalls() {
  const m = messages()
  return conv([
    m('user', 'u'),
    m('assistant', [call('call-1')]),
    m('tool', [result('call-1', 'r1')]),
    m('assistant', [call('call-2')]),
    m('tool', [result('call-2', 'r2')]),
    m('assistant', 'done'),
  ])
}

const summaries = (c: ReturnType<typeof conv>) =>
  transcript(c).filter((t) => t.startsWith('assistant: [Tool results:'))

describe('collapse-tool-results (MAF ToolResultCompactionStrategy)', () => {
  it('MAF example: multiple groups collapsed independently, exact texts and order', async () => {
    const m = messages()
    const c = conv([
      m('user', 'Compare weather in London, Paris, and Tokyo'),
      m('assistant', [call('c1', 'get_weather', { city: 'London' })]),
      m('tool', [result('c1', '{"temp":12,"condition":"cloudy","wind":"NW 15km/h"}')]),
      m('assistant', 'London is cloudy at 12°C.'),
      m('assistant', [
        call('c2', 'get_weather', { city: 'Paris' }),
        call('c3', 'search_hotels', { city: 'Paris' }),
      ]),
      m('tool', [result('c2', '{"temp":18,"condition":"sunny"}')]),
      m('tool', [result('c3', 'Grand Hotel (€120), Le Petit (€85)')]),
      m('assistant', 'Paris is sunny at 18°C. Found 2 hotels.'),
      m('assistant', [call('c4', 'get_weather', { city: 'Tokyo' })]),
      m('tool', [result('c4', '{"temp":22,"condition":"rainy"}')]),
      m('assistant', 'Tokyo is rainy at 22°C.'),
    ])
    const ctx = await run(c, { keepLastToolCallGroups: 1 })
    expect(transcript(project(ctx))).toEqual([
      'user: Compare weather in London, Paris, and Tokyo',
      'assistant: [Tool results: get_weather: {"temp":12,"condition":"cloudy","wind":"NW 15km/h"}]',
      'assistant: London is cloudy at 12°C.',
      'assistant: [Tool results: get_weather: {"temp":18,"condition":"sunny"}; search_hotels: Grand Hotel (€120), Le Petit (€85)]',
      'assistant: Paris is sunny at 18°C. Found 2 hotels.',
      'assistant: [call get_weather {"city":"Tokyo"}]',
      'tool: [result {"temp":22,"condition":"rainy"}]',
      'assistant: Tokyo is rainy at 22°C.',
    ])
  })

  it('MAF example: keeps the newest group verbatim and collapses the older one', async () => {
    const ctx = await run(twoCalls())
    const p = project(ctx)
    expect(summaries(p)).toEqual(['assistant: [Tool results: tool: r1]'])
    expect(transcript(p)).toContain('tool: [result r2]')
  })

  it('MAF example: keep 0 collapses every tool-call group', async () => {
    const p = project(await run(twoCalls(), { keepLastToolCallGroups: 0 }))
    expect(summaries(p)).toHaveLength(2)
    expect(p.messages.some((x) => x.role === 'tool')).toBe(false)
  })

  it('MAF example: no change when the tool groups do not exceed the keep count', async () => {
    const m = messages()
    const ctx = await run(
      conv([m('user', 'u'), m('assistant', [call('c1')]), m('tool', [result('c1', 'r1')])]),
    )
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(ctx.view.summaries()).toHaveLength(0)
  })

  it('hard case 1: parallel results land in one digest, in result order', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'get_weather', {}), call('c2', 'search_docs', {})]),
      m('tool', [result('c1', 'sunny')]),
      m('tool', [result('c2', 'found 3 docs')]),
      m('assistant', 'done'),
    ])
    const p = project(await run(c, { keepLastToolCallGroups: 0 }))
    expect(summaries(p)).toEqual([
      'assistant: [Tool results: get_weather: sunny; search_docs: found 3 docs]',
    ])
  })

  it('hard case 22: summary at the group start, linked both ways, in the same list', async () => {
    const ctx = await run(twoCalls())
    const [summary] = ctx.view.summaries()
    expect(summary).toMatchObject({ anchor: 1, position: 'before', covers: [1] })
    expect(summary?.message.summaryOf).toEqual({
      strategy: 'collapse-tool-results',
      groups: ['gm2'],
    })
    const insert = ctx.decisions.find((d) => d.kind === 'insert')
    expect(insert).toMatchObject({ covers: ['gm2'], reason: 'tool_result_compaction' })
    const exclude = ctx.decisions.find((d) => d.kind === 'exclude')
    expect(detailOf(exclude)).toContain(`(replaced by summary ${summary?.message.id})`)
    expect(detailOf(insert)).toBe(
      'Tool-result collapse: older than the newest 1 tool_call groups; collapsed tool_call group gm2 (tool): 1 results into a 24-character digest (15 → 9 tokens)',
    )
  })

  it('is idempotent: the inserted digest is a summary group and is not collapsed again', async () => {
    const first = project(await run(twoCalls()))
    const again = await run(first)
    expect(again.view.prepared.grouping.groups.map((g) => g.kind)).toEqual([
      'user',
      'summary',
      'tool_call',
      'assistant_text',
    ])
    expect(again.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
  })

  it('caps the digest at 4096 characters with the "... [truncated]" marker (PR #7396)', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'read', { path: 'big.txt' })]),
      m('tool', [result('c1', 'x'.repeat(10_000))]),
      m('assistant', [call('c2', 'read', { path: 'small.txt' })]),
      m('tool', [result('c2', 'small')]),
    ])
    const ctx = await run(c)
    const text = (ctx.view.summaries()[0]?.message.parts[0] as Part & { text: string }).text
    expect(text).toHaveLength(4096)
    expect(text.startsWith('[Tool results: read: xxxx')).toBe(true)
    expect(text.endsWith('x... [truncated]')).toBe(true)
    expect(text.slice(0, 4096 - TRUNCATION_MARKER.length)).toBe(
      `[Tool results: read: ${'x'.repeat(10_000)}]`.slice(0, 4096 - TRUNCATION_MARKER.length),
    )
    const insert = ctx.decisions.find((d) => d.kind === 'insert')
    expect(insert?.fixed).toBe(
      'MAF before PR #7396 would have inserted the full 10022-character digest, keeping the payload it was meant to evict (issue #7393)',
    )
  })

  it('faithful: reproduces the unbounded digest of issue #7393', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'read', { path: 'big.txt' })]),
      m('tool', [result('c1', 'x'.repeat(10_000))]),
      m('assistant', [call('c2', 'read', { path: 'small.txt' })]),
      m('tool', [result('c2', 'small')]),
    ])
    const ctx = await run(c, { faithful: true })
    const text = (ctx.view.summaries()[0]?.message.parts[0] as Part & { text: string }).text
    expect(text).toBe(`[Tool results: read: ${'x'.repeat(10_000)}]`)
    expect(ctx.decisions.find((d) => d.kind === 'insert')?.fixed).toBeUndefined()
  })

  it('does not resurrect results an earlier step cleared or removed (PR #7391)', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'read', { path: 'a' }), call('c2', 'grep', { q: 'b' })]),
      m('tool', [result('c1', 'secret contents of a '.repeat(20))]),
      m('tool', [result('c2', 'matches of b '.repeat(20))]),
      m('assistant', [call('c3', 'read', { path: 'c' })]),
      m('tool', [result('c3', 'c')]),
    ])
    const ctx = context(c, 'collapse-tool-results', real)
    // An earlier step stubbed the read result and removed the grep result entirely.
    ctx.replace(
      { message: 2, part: 0 },
      result('c1', '[cleared]'),
      'stub',
      'tool_use_cleared',
      'earlier step',
    )
    ctx.replace({ message: 3, part: 0 }, null, 'trim', 'pruned', 'earlier step')
    await collapseToolResultsStrategy.run(ctx, collapseToolResultsStrategy.schema.parse({}))
    expect(summaries(project(ctx))).toEqual(['assistant: [Tool results: read: [cleared]]'])
  })

  it('hard case 8: a hosted call without a result record collapses to "no results"', async () => {
    const m = messages()
    const hosted: Part = {
      kind: 'tool_call',
      callId: 'ws1',
      name: 'web_search',
      argsRaw: '{"query":"agent framework compaction"}',
      serverSide: true,
    }
    const c = conv([
      m('user', 'u'),
      m('assistant', [hosted]),
      m('assistant', [call('c2', 'read', { path: 'x' })]),
      m('tool', [result('c2', 'x')]),
    ])
    const p = project(await run(c))
    expect(summaries(p)).toEqual(['assistant: [Tool results: no results]'])
  })

  it('hard case 2: an older group with a pending call is refused, not collapsed', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'read', { path: 'a' }), call('c2', 'read', { path: 'b' })]),
      m('tool', [result('c1', 'contents of a '.repeat(10))]),
      m('assistant', [call('c3', 'read', { path: 'c' })]),
      m('tool', [result('c3', 'c')]),
    ])
    const ctx = await run(c)
    expect(ctx.decisions[0]).toMatchObject({
      kind: 'protected',
      attempted: 'insert',
      protection: 'pending_call',
    })
    expect(ctx.view.summaries()).toHaveLength(0)
    expect(ctx.view.isExcluded(1)).toBe(false)
  })

  it('skips a collapse that would not save tokens; faithful collapses anyway', async () => {
    const m = messages()
    const c = conv([
      m('user', 'u'),
      m('assistant', [call('c1', 'ls', {})]),
      m('tool', [result('c1', 'a')]),
      m('assistant', [call('c2', 'ls', {})]),
      m('tool', [result('c2', 'b')]),
    ])
    const setup: Setup = { framing: { perMessage: 0, perToolCall: 0, perConversation: 0 } }
    const fixed = await run(c, {}, setup)
    expect(fixed.decisions[0]).toMatchObject({ kind: 'skip', reason: 'no_savings' })
    expect(fixed.view.summaries()).toHaveLength(0)
    const faithful = await run(c, { faithful: true }, setup)
    expect(faithful.view.summaries()).toHaveLength(1)
  })

  it('rejects a negative keep count', () => {
    const r = collapseToolResultsStrategy.schema.safeParse({ keepLastToolCallGroups: -1 })
    expect(r.error?.issues[0]?.message).toBe(
      'keepLastToolCallGroups must be greater than or equal to 0',
    )
    expect(collapseToolResultsStrategy.schema.parse({})).toEqual({
      keepLastToolCallGroups: 1,
      maxSummaryChars: 4096,
      faithful: false,
    })
  })
})
