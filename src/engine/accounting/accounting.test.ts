import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { replay } from '../compaction/replay.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Conversation, FormatId, Message, Part, ReportedUsage } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { estimateCounter } from '../tokens/index.ts'
import { accountingFor } from './index.ts'
import { contextPlan } from './plan.ts'
import { reconcile, usageProblem } from './reconcile.ts'
import { visibleContexts } from './visible.ts'
import { maxOf } from '../arrays.ts'

const counter = estimateCounter
const words = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ')
const text = (t: string): Part => ({ kind: 'text', text: t })
const thinking = (t: string): Part => ({ kind: 'reasoning', text: t, textKind: 'full' })
const call = (id: string): Part => ({ kind: 'tool_call', callId: id, name: 'Read', argsRaw: '{}' })
const result = (id: string, out: string): Part => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text: out }],
  isError: false,
})
const user = (id: string, t: string, extra: Partial<Message> = {}): Message => ({
  id,
  role: 'user',
  parts: [text(t)],
  ...extra,
})
const assistant = (id: string, parts: Part[], extra: Partial<Message> = {}): Message => ({
  id,
  role: 'assistant',
  parts,
  ...extra,
})
const tool = (id: string, callId: string, out: string, extra: Partial<Message> = {}): Message => ({
  id,
  role: 'tool',
  parts: [result(callId, out)],
  ...extra,
})
const conv = (
  format: FormatId,
  messages: Message[],
  extra: Partial<Conversation> = {},
): Conversation => ({
  meta: { format },
  system: [],
  tools: [],
  messages,
  markers: [],
  ...extra,
})
const usage = (contextTokens: number, extra: Partial<ReportedUsage> = {}): ReportedUsage => ({
  contextTokens,
  source: 'test usage',
  ...extra,
})
const tokensOf = (c: Conversation, ids: string[]) => {
  const p = prepare(c, counter)
  return ids.reduce(
    (t, id) => t + (p.messageTokens[c.messages.findIndex((m) => m.id === id)] as number),
    0,
  )
}
const base = (c: Conversation) => {
  const p = prepare(c, counter)
  return p.staticTokens + p.systemTokens
}

describe('per-call context model', () => {
  it('an upstream compaction (Claude Code compact boundary) restarts the context: its summary stands in for what it replaced', () => {
    const c = conv(
      'claude-code',
      [
        user('u1', words(400)),
        assistant('a1', [text(words(50))]),
        user('u2', words(300)),
        assistant('a2', [text('ok')]),
        user('s', `This session is being continued. Summary: ${words(40)}`, { injected: true }),
        user('u3', 'go on'),
        assistant('a3', [text('done')]),
      ],
      {
        markers: [{ kind: 'upstream_compaction', beforeIndex: 4, origin: 'claude-code-boundary' }],
      },
    )
    const v = visibleContexts(prepare(c, counter))
    expect(v.map((x) => x.index)).toEqual([1, 3, 6])
    expect(v[1]?.tokens).toBe(base(c) + tokensOf(c, ['u1', 'a1', 'u2']))
    // After the boundary: the summary and what follows, nothing from before.
    expect(v[2]?.tokens).toBe(base(c) + tokensOf(c, ['s', 'u3']))
    expect(v[2]?.upstreamCompaction).toBe(true)
  })

  it('a Codex `compacted` item restarts the context the same way', () => {
    const c = conv(
      'codex',
      [
        user('u1', words(500)),
        assistant('a1', [call('c1')]),
        tool('t1', 'c1', words(800)),
        assistant('a2', [text('x')]),
        user('r', `summary ${words(30)}`, { injected: true }),
        assistant('a3', [text('y')]),
      ],
      { markers: [{ kind: 'upstream_compaction', beforeIndex: 4, origin: 'codex-compacted' }] },
    )
    const v = visibleContexts(prepare(c, counter))
    expect(v.at(-1)?.tokens).toBe(base(c) + tokensOf(c, ['r']))
  })

  it('sidechains and sub-agents have contexts of their own', () => {
    const c = conv('claude-code', [
      user('u1', words(100)),
      assistant('a1', [call('task')]),
      user('s1', words(200), { sidechain: 'sidechain' }),
      assistant('sa1', [text(words(20))], { sidechain: 'sidechain' }),
      user('s2', words(50), { sidechain: 'sidechain #2' }),
      assistant('sb1', [text('x')], { sidechain: 'sidechain #2' }),
      tool('t', 'task', words(30)),
      assistant('a2', [text('done')]),
    ])
    const p = prepare(c, counter)
    expect(contextPlan(p).threads).toEqual(['main', 'sidechain', 'sidechain #2'])
    const v = visibleContexts(p)
    const at = (id: string) => v.find((x) => c.messages[x.index]?.id === id)?.tokens
    expect(at('sa1')).toBe(base(c) + tokensOf(c, ['s1']))
    expect(at('sb1')).toBe(base(c) + tokensOf(c, ['s2']))
    expect(at('a2')).toBe(base(c) + tokensOf(c, ['u1', 'a1', 't']))
  })

  it('Anthropic thinking: kept inside the tool-use loop, gone once a new user turn starts', () => {
    const messages = [
      user('u1', words(20)),
      assistant('a1', [thinking(words(300, 'think')), call('c1')]),
      tool('t1', 'c1', words(40)),
      assistant('a2', [text('answer')]),
      user('u2', 'next'),
      assistant('a3', [text('fine')]),
    ]
    const c = conv('anthropic-messages', messages)
    const p = prepare(c, counter)
    const v = visibleContexts(p)
    const thinkingTokens = p.partTokens[1]?.[0] as number
    expect(thinkingTokens).toBeGreaterThan(200)
    // a2 is inside the loop that a1's thinking belongs to: it counts.
    expect(v[1]?.tokens).toBe(base(c) + tokensOf(c, ['u1', 'a1', 't1']))
    // a3 comes after a new user message: a1's thinking is no longer counted.
    expect(v[2]?.tokens).toBe(
      base(c) + tokensOf(c, ['u1', 'a1', 't1', 'a2', 'u2']) - thinkingTokens,
    )
    // OpenAI drops reasoning items of earlier turns the same way; Gemini never takes thought
    // text back; under the `keep` rule (tested against reported usage) it stays.
    const openai = prepare(conv('openai-responses', messages), counter)
    expect(visibleContexts(openai)[2]?.tokens).toBe(v[2]?.tokens)
    const kept = visibleContexts(openai, contextPlan(openai, 'keep'))
    expect(kept[2]?.tokens).toBe(base(c) + tokensOf(c, ['u1', 'a1', 't1', 'a2', 'u2']))
    const gemini = prepare(conv('gemini', messages), counter)
    expect(visibleContexts(gemini)[1]?.tokens).toBe(
      base(c) + tokensOf(c, ['u1', 'a1', 't1']) - thinkingTokens,
    )
  })

  it('the thinking rule that explains the reported usage wins over the documented one', () => {
    // Reported figures that count earlier-turn thinking (as some agents' logs show).
    const messages: Message[] = [user('u0', 'start')]
    for (let k = 0; k < 12; k++) {
      messages.push(assistant(`a${k}`, [thinking(words(150, `t${k}x`)), call(`c${k}`)]))
      messages.push(tool(`t${k}`, `c${k}`, words(40 + k * 9, `r${k}x`)))
      messages.push(assistant(`b${k}`, [text(words(10, `b${k}x`))]))
      messages.push(user(`u${k + 1}`, words(5, `u${k}x`)))
    }
    messages.push(assistant('end', [text('bye')]))
    const plain = conv('claude-code', messages)
    const p0 = prepare(plain, counter)
    const kept = visibleContexts(p0, contextPlan(p0, 'keep'))
    const withUsage = plain.messages.map((m) => {
      const i = kept.findIndex((x) => plain.messages[x.index] === m)
      return i < 0 ? m : { ...m, usage: usage(Math.round(9000 + 1.1 * (kept[i]?.tokens ?? 0))) }
    })
    const r = reconcile(prepare({ ...plain, messages: withUsage }, counter))
    expect(r.rules).toMatch(/earlier turns is counted/)
    expect(r.medianAbsError).toBeLessThan(0.01)
  })

  it('encrypted reasoning is priced at the reasoning tokens its own call reported', () => {
    const enc: Part = {
      kind: 'reasoning',
      text: '',
      textKind: 'summary',
      opaque: { label: 'encrypted reasoning', bytes: 40, data: 'x'.repeat(40) },
    }
    const c = conv('codex', [
      user('u', 'hi'),
      assistant('a1', [enc, call('c1')], { usage: usage(100, { reasoningTokens: 1234 }) }),
      tool('t', 'c1', 'out'),
      assistant('a2', [text('ok')]),
    ])
    const p = prepare(c, counter)
    expect(p.partTokens[1]?.[0]).toBe(1234)
    expect(visibleContexts(p)[1]?.tokens).toBeGreaterThan(1234)
  })
})

describe('usage validation', () => {
  it('names what is wrong with a reported figure', () => {
    expect(usageProblem(undefined)).toMatch(/no usage/)
    expect(usageProblem(usage(0))).toMatch(/is 0/)
    expect(usageProblem(usage(-5))).toMatch(/negative/)
    expect(usageProblem({ contextTokens: Number.NaN, source: 't' })).toMatch(/not a number/)
    expect(usageProblem({ contextTokens: '12' as unknown as number, source: 't' })).toMatch(
      /not a number/,
    )
    expect(usageProblem(usage(100, { cacheReadTokens: 500 }))).toMatch(/inconsistent/)
    expect(usageProblem(usage(100, { inputTokens: 60, cacheReadTokens: 40 }))).toBeNull()
  })
})

/** A session of `n` tool-loop calls whose reported usage follows a known model exactly. */
function synthetic(
  n: number,
  truth: { prefix: number; scale: number; stepAt?: number; step?: number },
  corrupt: (k: number, exact: number) => number | undefined = (_k, exact) => exact,
): Conversation {
  const messages: Message[] = [user('u0', words(50))]
  for (let k = 0; k < n; k++) {
    messages.push(assistant(`a${k}`, [call(`c${k}`)]))
    messages.push(tool(`t${k}`, `c${k}`, words(30 + ((k * 37) % 200), `k${k}x`)))
  }
  messages.push(assistant('last', [text('done')]))
  const c0 = conv('claude-code', messages)
  const v = visibleContexts(prepare(c0, counter))
  const withUsage = messages.map((m) => {
    const i = v.findIndex((x) => c0.messages[x.index] === m)
    if (i < 0) return m
    const prefix =
      truth.prefix + (truth.stepAt !== undefined && i >= truth.stepAt ? (truth.step ?? 0) : 0)
    const exact = Math.round(prefix + truth.scale * (v[i]?.tokens ?? 0))
    const reported = corrupt(i, exact)
    return reported === undefined ? m : { ...m, usage: usage(reported) }
  })
  return { ...c0, messages: withUsage }
}

describe('reconciliation fit', () => {
  it('recovers a known hidden prefix and scale; the estimate is the model, not the reported figure', () => {
    const r = reconcile(prepare(synthetic(40, { prefix: 21_000, scale: 1.15 }), counter))
    expect(r.source).toBe('reconciled')
    expect(r.scale).toBeCloseTo(1.15, 2)
    expect(Math.abs(r.prefixTokens - 21_000)).toBeLessThan(150)
    expect(r.medianAbsError).toBeLessThan(0.01)
    // Each estimate is prefix + scale × visible, computed from the fit.
    for (const f of r.figures) expect(f.estimate).toBe(Math.round(f.prefix + r.scale * f.visible))
  })

  it('finds a step of the hidden prefix inside the session (tools added later)', () => {
    const r = reconcile(
      prepare(synthetic(40, { prefix: 15_000, scale: 1.1, stepAt: 22, step: 6_000 }), counter),
    )
    expect(r.steps).toHaveLength(1)
    expect(r.steps[0]?.prefixTokens).toBeGreaterThan(20_500)
    expect(r.p90AbsError).toBeLessThan(0.02)
  })

  it('drops cumulative, zero, negative and non-numeric figures and still fits the rest', () => {
    const r = reconcile(
      prepare(
        synthetic(40, { prefix: 30_000, scale: 1.2 }, (k, exact) =>
          k === 5
            ? 0
            : k === 9
              ? -3
              : k === 12
                ? exact * 14 /* cumulative */
                : k === 20
                  ? Number.NaN
                  : exact,
        ),
        counter,
      ),
    )
    expect(r.ignored.map((x) => x.call)).toEqual([5, 9, 12, 20])
    expect(r.ignored.find((x) => x.call === 12)?.why).toMatch(/above the fit/)
    expect(r.dropped).toBe(4)
    expect(r.scale).toBeCloseTo(1.2, 2)
    expect(r.medianAbsError).toBeLessThan(0.01)
  })

  it('with nothing reported, says so and uses our count (or the user’s figures)', () => {
    const c = synthetic(10, { prefix: 0, scale: 1 }, () => undefined)
    const r = reconcile(prepare(c, counter))
    expect(r.source).toBe('estimated')
    expect(r.summary).toMatch(/no usage reported/)
    expect(r.scale).toBe(1)
    const o = reconcile(prepare(c, counter), { overrides: { prefixTokens: 9000, scale: 1.3 } })
    expect(o.prefixFrom).toBe('override')
    expect(o.figures[0]?.estimate).toBe(Math.round(9000 + 1.3 * (o.figures[0]?.visible ?? 0)))
  })

  it('predicts: fitted on the first half of the calls, the second half is within 1 %', () => {
    const p = prepare(synthetic(60, { prefix: 12_000, scale: 0.95 }), counter)
    const r = reconcile(p, { fitOn: (k) => k < 30 })
    const second = r.figures.slice(30).map((f) => Math.abs(f.residual ?? 1))
    expect(maxOf(second)).toBeLessThan(0.01)
  })
})

describe('the working view measures the reconciled context', () => {
  const config = (over: number): EngineConfig => ({
    window: { contextTokens: 200_000, reservedOutput: 0, buffer: 0 },
    protections: DEFAULT_PROTECTIONS,
    pipeline: [
      {
        strategy: 'clear-tool-uses',
        enabled: true,
        params: { keep: 1 },
        trigger: { mode: 'any', conditions: [{ kind: 'tokens', over }] },
      },
    ],
    fallback: { enabled: false, strict: false },
  })

  it('before each call equals the reconciled estimate; the headline is the context of the next call', async () => {
    const c = synthetic(30, { prefix: 20_000, scale: 1.1 })
    const p = prepare(c, counter)
    const points = await replay(p, config(10_000_000), { counter }, STRATEGY_REGISTRY)
    const rec = accountingFor(p).reconciliation
    expect(points.map((x) => x.before)).toEqual(rec.figures.map((f) => f.estimate))
    expect(points.every((x) => x.after === x.before)).toBe(true)
    const run = await compact(p, config(10_000_000), { counter }, STRATEGY_REGISTRY)
    const view = new WorkingView(p, undefined, accountingFor(p).lastCall)
    expect(run.tokensBefore).toBe(view.contextTokens)
    expect(run.tokensBefore).toBeGreaterThan(20_000)
  })

  it('triggers fire on the reconciled figure (what production sees), not on our raw count', async () => {
    const c = synthetic(30, { prefix: 20_000, scale: 1.1 })
    const p = prepare(c, counter)
    const raw = new WorkingView(p).totalTokens
    expect(raw).toBeLessThan(15_000)
    // 15k is above our raw count but below the reconciled one: it must fire.
    const run = await compact(p, config(15_000), { counter }, STRATEGY_REGISTRY)
    expect(run.steps[0]?.status).toBe('ran')
    expect(run.steps[0]?.why).toMatch(/tokens > 15000 ✓/)
  })

  it('property: after any decisions and rollbacks the view’s context equals a recount', () => {
    const c = conv('anthropic-messages', [
      user('u1', words(60)),
      assistant('a1', [thinking(words(90, 'th')), call('c1')]),
      tool('t1', 'c1', words(120)),
      assistant('a2', [thinking(words(40, 'tb')), call('c2')]),
      tool('t2', 'c2', words(200)),
      user('u2', words(10)),
      user('s', words(30), { sidechain: 'agent-x' }),
      assistant('sa', [text(words(20))], { sidechain: 'agent-x' }),
      assistant('a3', [call('c3')]),
      tool('t3', 'c3', words(80)),
      assistant('a4', [text('end')]),
    ])
    const p = prepare(c, counter)
    const plan = contextPlan(p)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: c.messages.length }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('exclude' as const), g: fc.nat(20) }),
            fc.record({
              op: fc.constant('replace' as const),
              m: fc.nat(20),
              part: fc.nat(2),
              tokens: fc.nat(50),
            }),
            fc.record({ op: fc.constant('rollback' as const) }),
            fc.record({ op: fc.constant('insert' as const), g: fc.nat(20), tokens: fc.nat(80) }),
            fc.record({ op: fc.constant('retract' as const) }),
          ),
          { maxLength: 12 },
        ),
        (limit, ops) => {
          const view = new WorkingView(p, limit, { scale: 1.5, prefixAt: (i) => 1000 + i })
          const marks: number[] = []
          let inserted = 0
          for (const o of ops) {
            if (o.op === 'exclude') {
              marks.push(view.checkpoint())
              view.exclude(o.g % p.grouping.groups.length)
            } else if (o.op === 'replace') {
              const m = o.m % c.messages.length
              const parts = c.messages[m]?.parts.length ?? 0
              if (parts === 0) continue
              marks.push(view.checkpoint())
              view.replace({ message: m, part: o.part % parts }, text('x'), o.tokens, 'test')
            } else if (o.op === 'insert') {
              marks.push(view.checkpoint())
              const anchor = o.g % p.grouping.groups.length
              view.insert({
                message: { id: `sum${inserted++}`, role: 'user', parts: [text('summary')] },
                tokens: o.tokens,
                anchor,
                position: 'before',
                covers: [],
              })
            } else if (o.op === 'retract') {
              const last = view.summaries().at(-1)
              if (!last) continue
              marks.push(view.checkpoint())
              view.retract(last.message.id)
            } else if (marks.length > 0) view.rollback(marks.pop() as number)
          }
          // Summaries still in the view count in the thread of the message they are placed at.
          const live = view.summaries()
          // Recount from scratch: the thread of the measured call, from its start, visible and
          // not excluded, minus reasoning parts the provider does not count at this point.
          const callIndex = view.currentCall
          const thread = plan.threadOf[callIndex] as number
          let ours = p.staticTokens + p.systemTokens
          let lastUser = -1
          for (let m = 0; m < Math.min(limit, c.messages.length); m++) {
            const msg = c.messages[m] as Message
            if (plan.threadOf[m] !== thread) continue
            if (msg.role === 'user') lastUser = m
          }
          for (let m = 0; m < Math.min(limit, c.messages.length); m++) {
            if (plan.threadOf[m] !== thread) continue
            if (view.isExcluded(p.grouping.groupOfMessage[m] as number)) continue
            const msg = c.messages[m] as Message
            ours += view.messageTokens(m)
            msg.parts.forEach((part, i) => {
              if (part.kind === 'reasoning' && m < lastUser)
                ours -= view.partTokens({ message: m, part: i })
            })
          }
          for (const sm of live) {
            const at = p.grouping.groups[sm.anchor]?.messages[0] ?? -1
            if ((at < 0 ? 0 : plan.threadOf[at]) === thread) ours += sm.tokens
          }
          expect(view.contextTokens).toBe(Math.round(1000 + callIndex + 1.5 * ours))
        },
      ),
      { numRuns: 300, seed: 42 },
    )
  })
})
