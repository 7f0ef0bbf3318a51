import { describe, expect, it } from 'vitest'
import { DEFAULT_FRAMING } from '../tokens/pricing.ts'
import { estimateCounter } from '../tokens/index.ts'
import { collapseToolResultsStrategy } from './collapse-tool-results.ts'
import { tokenBudgetStrategy } from './token-budget.ts'
import { truncationStrategy } from './truncation.ts'
import {
  call,
  conv,
  messages,
  project,
  reasoning,
  result,
  runStrategy,
  runSteps,
  transcript,
  type Step,
} from './truncation/testing.ts'
import { detailOf } from '../compaction/sentence.ts'

const run = tokenBudgetStrategy
const reasons = (ctx: Awaited<ReturnType<typeof runStrategy>>) => ctx.decisions.map((d) => d.reason)

function longChat() {
  const m = messages()
  return conv([
    m('system', 'system'),
    m('user', 'user '.repeat(200)),
    m('assistant', 'assistant '.repeat(200)),
  ])
}

describe('token-budget (MAF TokenBudgetComposedStrategy fallbacks)', () => {
  it('MAF example (budget 20): fallback, then strict; the minimum retained group stays', async () => {
    // MAF's own test (budget 20, ≤ 20 after) predates the minimum retained group (#7219); with
    // it, an impossible budget keeps the newest group and is reported over budget.
    const ctx = await runStrategy(
      run,
      longChat(),
      { tokenBudget: 20, strict: true },
      {
        protections: { system: false },
      },
    )
    expect(transcript(project(ctx)).map((t) => t.slice(0, 25))).toEqual([
      'assistant: assistant assi',
    ])
    expect(reasons(ctx)).toEqual([
      'token_budget_fallback',
      'token_budget_fallback_strict',
      'protected',
    ])
    expect(detailOf(ctx.decisions[0])).toBe(
      'Token budget fallback: 401 included message tokens > budget 20 (was 401); dropped the oldest user group gm2 (200 tokens)',
    )
    expect(detailOf(ctx.decisions[1])).toBe(
      'Strict token budget fallback: 201 included message tokens still > budget 20 after dropping non-system groups; dropped system group gm1 (1 tokens)',
    )
    expect(detailOf(ctx.decisions[2])).toBe(
      'Token budget: still over budget, 200 included message tokens > 20: kept the newest assistant_text group gm3 (200 tokens) — the minimum retained group is never excluded, so the context is never empty',
    )
  })

  it('does nothing under budget', async () => {
    const ctx = await runStrategy(run, longChat(), { tokenBudget: 401 })
    expect(reasons(ctx)).toEqual(['below_threshold'])
    expect(detailOf(ctx.decisions[0])).toBe(
      'Token budget: 401 included message tokens fit the budget of 401; nothing dropped',
    )
  })

  it('fallback 1 stops as soon as the context is under budget', async () => {
    const m = messages()
    const c = conv([
      m('user', 'one two three'),
      m('assistant', 'four five'),
      m('user', 'six seven'),
      m('assistant', 'eight'),
    ])
    const ctx = await runStrategy(run, c, { tokenBudget: 4 })
    expect(transcript(project(ctx))).toEqual(['user: six seven', 'assistant: eight'])
    expect(reasons(ctx)).toEqual(['token_budget_fallback', 'token_budget_fallback'])
  })

  it('hard case 20: an oversized latest group is kept and reported still over budget', async () => {
    const m = messages()
    const c = conv([
      m('user', 'read it'),
      m('assistant', [call('c1', 'read', { path: 'huge.log' })]),
      m('tool', [result('c1', 'line '.repeat(1000))]),
    ])
    const ctx = await runStrategy(run, c, { tokenBudget: 100, strict: true })
    expect(transcript(project(ctx)).map((t) => t.slice(0, 30))).toEqual([
      'assistant: [call read {"path":',
      'tool: [result line line line l',
    ])
    expect(ctx.decisions.at(-1)).toMatchObject({
      kind: 'skip',
      reason: 'protected',
      groupId: 'gm2',
    })
    expect(detailOf(ctx.decisions.at(-1))).toMatch(/^Token budget: still over budget, 1002/)
  })

  it('hard case 21: system alone over budget — the strict fallback drops it', async () => {
    const m = messages()
    const c = conv([m('user', 'hi'), m('assistant', 'hello')], { system: 'rule '.repeat(100) })
    const strict = await runStrategy(
      run,
      c,
      { tokenBudget: 50, strict: true },
      {
        protections: { system: false },
      },
    )
    expect(reasons(strict)).toEqual(['token_budget_fallback', 'token_budget_fallback_strict'])
    expect(strict.decisions[1]?.groupId).toBe('g:system')
    expect(project(strict).system).toEqual([])
    expect(transcript(project(strict))).toEqual(['assistant: hello'])
  })

  it('hard case 21: with the system protection on, the strict attempt is refused and recorded', async () => {
    const m = messages()
    const c = conv([m('user', 'hi')], { system: 'rule '.repeat(100) })
    const ctx = await runStrategy(run, c, { tokenBudget: 50, strict: true })
    expect(ctx.decisions[0]).toMatchObject({
      kind: 'protected',
      protection: 'system',
      groupId: 'g:system',
    })
    expect(detailOf(ctx.decisions[1])).toMatch(/^Token budget: still over budget, 101 included/)
  })

  it('without strict, system groups are left and the result is reported over budget', async () => {
    const m = messages()
    const c = conv([m('user', 'hi'), m('assistant', 'hello')], { system: 'rule '.repeat(100) })
    const ctx = await runStrategy(run, c, { tokenBudget: 50 }, { protections: { system: false } })
    expect(reasons(ctx)).toEqual(['token_budget_fallback', 'protected'])
    expect(detailOf(ctx.decisions[1])).toContain('(strict fallback off)')
  })

  it('hard cases 1 and 6: groups with parallel calls and reasoning are dropped whole', async () => {
    const m = messages()
    const c = conv([
      m('user', 'go'),
      m('assistant', [reasoning('plan both')]),
      m('assistant', [call('a', 'read', { p: 1 }), call('b', 'read', { p: 2 })]),
      m('tool', [result('a', 'A '.repeat(50))]),
      m('tool', [result('b', 'B '.repeat(50))]),
      m('assistant', 'done'),
    ])
    const ctx = await runStrategy(run, c, { tokenBudget: 10 })
    expect(transcript(project(ctx))).toEqual(['assistant: done'])
    expect(ctx.decisions.filter((d) => d.kind === 'exclude').map((d) => d.groupId)).toEqual([
      'gm1',
      'gm2',
    ])
  })

  it('fallback: false only records that the context is over budget', async () => {
    const ctx = await runStrategy(run, longChat(), { tokenBudget: 20, fallback: false })
    expect(reasons(ctx)).toEqual(['denied_by_policy'])
    expect(ctx.totalTokens()).toBe(401)
  })

  it('defaults the budget to the usable window minus tool definitions', async () => {
    const tools = [{ name: 't', raw: 'a b c d e f g h i j' }]
    const m = messages()
    const c = conv([m('user', 'one two three'), m('assistant', 'four five')], { tools })
    // usable 18 − 4 = 14, minus 10 tokens of tool definitions = 4 for messages.
    const ctx = await runStrategy(run, c, {}, { contextTokens: 18, reservedOutput: 4 })
    expect(detailOf(ctx.decisions[0])).toBe(
      'Token budget fallback: 5 included message tokens > budget 4 (usable window minus tool definitions) (was 5); dropped the oldest user group gm1 (3 tokens)',
    )
    expect(transcript(project(ctx))).toEqual(['assistant: four five'])
  })

  it('rejects invalid options', () => {
    expect(run.schema.safeParse({ tokenBudget: 0 }).error?.issues[0]?.message).toBe(
      'tokenBudget must be greater than 0',
    )
    expect(run.schema.parse({})).toEqual({ fallback: true, strict: false })
  })
})

/**
 * MAF ContextWindowCompactionStrategy(window, max_output, keep=4, 0.5, 0.8) as pipeline steps:
 * budget B = window − max output; E = int(0.5·B), T = int(0.8·B).
 * Phase 1 = TokenBudgetComposed(E, [ToolResultCompaction(keep)]) → steps 1–2 gated over E;
 * phase 2 = TokenBudgetComposed(T, [Truncation(max_n=T, compact_to=E)]) → steps 3–4 gated over T.
 */
function contextWindow(window: number, maxOutput: number, keep = 4, faithful = false): Step[] {
  const budget = window - maxOutput
  const evict = Math.floor(budget * 0.5)
  const truncate = Math.floor(budget * 0.8)
  return [
    {
      strategy: collapseToolResultsStrategy,
      params: { keepLastToolCallGroups: keep, faithful },
      over: evict,
    },
    { strategy: tokenBudgetStrategy, params: { tokenBudget: evict, strict: true }, over: evict },
    {
      strategy: truncationStrategy,
      params: { metric: 'tokens', maxN: truncate, compactTo: evict },
      over: truncate,
    },
    {
      strategy: tokenBudgetStrategy,
      params: { tokenBudget: truncate, strict: true },
      over: truncate,
    },
  ]
}
const realistic = { counter: estimateCounter, framing: DEFAULT_FRAMING }

describe('MAF ContextWindowCompactionStrategy examples, as pipeline steps', () => {
  it('no-op under the tool-eviction threshold', async () => {
    const m = messages()
    const c = conv([m('system', 'sys'), m('user', 'hello'), m('assistant', 'hi')])
    expect(await runSteps(c, contextWindow(1000, 200), realistic)).toEqual([])
  })

  it('tool eviction fires over 0.5·budget; truncation does not', async () => {
    const m = messages()
    const c = conv([
      m('system', 'system prompt'),
      ...[1, 2, 3, 4, 5].flatMap((i) => [
        m('user', `u${i}`),
        m('assistant', [call(`c${i}`)]),
        m('tool', [result(`c${i}`, 'x'.repeat(8000))]),
      ]),
    ])
    const steps = await runSteps(c, contextWindow(20_000, 200, 2), realistic)
    const decisions = steps.flatMap((s) => s.decisions)
    expect(steps.map((s) => s.strategy)).toEqual(['collapse-tool-results'])
    expect(decisions.filter((d) => d.kind === 'insert')).toHaveLength(3)
    expect(decisions.some((d) => d.reason === 'truncation')).toBe(false)
    // Before PR #7396 the digests kept the payload, so the phase-1 fallback had to drop groups.
    const faithful = await runSteps(c, contextWindow(20_000, 200, 2, true), realistic)
    expect(faithful.map((s) => s.strategy)).toEqual(['collapse-tool-results', 'token-budget'])
    expect(faithful[1]?.decisions.map((d) => d.reason)).toContain('token_budget_fallback')
  })

  it('over 0.8·budget without tool calls: older groups go, the system prompt stays', async () => {
    const m = messages()
    const c = conv([
      m('system', 'sys'),
      m('user', 'u1 '.repeat(400)),
      m('assistant', 'a1 '.repeat(400)),
      m('user', 'u2 '.repeat(400)),
      m('assistant', 'a2 '.repeat(400)),
    ])
    const steps = await runSteps(c, contextWindow(1000, 100), realistic)
    const p = project(steps[0] as NonNullable<(typeof steps)[0]>)
    expect(p.messages[0]?.role).toBe('system')
    expect(p.messages.length).toBeLessThan(5)
    expect(p.messages.map((x) => x.id)).toEqual(['m1', 'm5'])
  })

  it('keep_last_tool_call_groups is respected', async () => {
    const m = messages()
    const c = conv([
      m('system', 'sys'),
      ...[1, 2, 3].flatMap((i) => [
        m('user', `u${i}`),
        m('assistant', [call(`c${i}`)]),
        m('tool', [result(`c${i}`, `r${i} `.repeat(200))]),
      ]),
    ])
    const steps = await runSteps(c, contextWindow(1000, 100, 1), realistic)
    const p = project(steps[0] as NonNullable<(typeof steps)[0]>)
    expect(
      p.messages.some((x) =>
        x.parts.some((part) => part.kind === 'tool_call' && part.callId === 'c3'),
      ),
    ).toBe(true)
  })
})
