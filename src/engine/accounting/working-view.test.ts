import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { replay } from '../compaction/replay.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Message } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { accountingFor } from './index.ts'
import { contextPlan } from './plan.ts'
import {
  counter,
  words,
  text,
  thinking,
  call,
  user,
  assistant,
  tool,
  conv,
  synthetic,
} from './accounting.testing.ts'

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
