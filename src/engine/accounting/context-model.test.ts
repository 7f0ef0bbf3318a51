import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import type { Message, Part } from '../model.ts'
import { contextPlan } from './plan.ts'
import { reconcile, usageProblem } from './reconcile.ts'
import { visibleContexts } from './visible.ts'
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
  usage,
  tokensOf,
  base,
} from './accounting.testing.ts'

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
