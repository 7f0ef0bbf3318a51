import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Conversation, Message, Part } from '../model.ts'
import type { TextCounter } from '../tokens/types.ts'
import { DEFAULT_PROTECTIONS } from './protect.ts'
import { prepare } from './prepared.ts'
import { replay } from './replay.ts'
import { compact } from './run.ts'
import { defineStrategy } from './strategy.ts'
import type { EngineConfig, StepConfig } from './types.ts'
import { detailOf } from './sentence.ts'

/** One token per word: expected figures stay readable. */
const words: TextCounter = {
  id: 'o200k_base',
  exact: true,
  count: (t) => (t.trim() === '' ? 0 : t.trim().split(/\s+/).length),
}
const deps = { counter: words }

const text = (t: string): Part => ({ kind: 'text', text: t })
const call = (id: string, name = 'read'): Part => ({
  kind: 'tool_call',
  callId: id,
  name,
  argsRaw: '{}',
  args: {},
})
const result = (id: string, out: string): Part => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text: out }],
  isError: false,
})
let n = 0
const msg = (role: Message['role'], parts: Part[]): Message => ({ id: `m${++n}`, role, parts })
const conv = (messages: Message[]): Conversation => ({
  meta: { format: 'openai-chat' },
  system: [{ kind: 'text', text: 'be brief' }],
  tools: [],
  messages,
  markers: [],
})
const big = (k: number) => Array.from({ length: k }, (_, i) => `w${i}`).join(' ')

// Test strategies: stub every older result; exclude the oldest group; throw halfway.
const stubAll = defineStrategy({
  id: 'stub-all',
  label: 'stub all',
  source: 'test',
  description: '',
  schema: z.object({ keep: z.number().int().min(0).default(1) }),
  run(ctx, p) {
    const results = ctx.pairing.results.filter((r) => ctx.visible(r.message))
    for (const r of results.slice(0, Math.max(0, results.length - p.keep))) {
      const part = ctx.view.part(r)
      if (part?.kind !== 'tool_result') continue
      ctx.replace(
        r,
        { ...part, content: [{ kind: 'text', text: '[gone]' }] },
        'stub',
        'pruned',
        'test stub',
      )
    }
  },
})
const dropOldest = defineStrategy({
  id: 'drop-oldest',
  label: 'drop oldest',
  source: 'test',
  description: '',
  schema: z.object({}),
  run(ctx) {
    // Drops one group, once: a later pass over the pipeline finds something dropped and stops.
    if (ctx.groups().some((x) => ctx.view.isExcluded(x.index))) return
    const g = ctx.groups().find((x) => x.kind !== 'system' && !ctx.view.isExcluded(x.index))
    if (g) ctx.exclude(g.index, 'truncation', 'test drop')
  },
})
const throwing = defineStrategy({
  id: 'throws',
  label: 'throws',
  source: 'test',
  description: '',
  schema: z.object({}),
  run(ctx) {
    const g = ctx.groups().find((x) => x.kind === 'tool_call')
    if (g) ctx.exclude(g.index, 'truncation', 'about to fail')
    throw new Error('boom')
  },
})
const registry = new Map([stubAll, dropOldest, throwing].map((s) => [s.id, s]))

function config(pipeline: StepConfig[], extra: Partial<EngineConfig> = {}): EngineConfig {
  return {
    window: { contextTokens: 1000, reservedOutput: 100, buffer: 0 },
    protections: DEFAULT_PROTECTIONS,
    pipeline,
    fallback: { enabled: false, strict: false },
    ...extra,
  }
}
const step = (strategy: string, params = {}, more: Partial<StepConfig> = {}): StepConfig => ({
  strategy,
  enabled: true,
  params,
  ...more,
})

function sample(): Conversation {
  return conv([
    msg('user', [text('read both files')]),
    msg('assistant', [call('a'), call('b')]),
    msg('tool', [result('a', big(50))]),
    msg('tool', [result('b', big(60))]),
    msg('user', [text('again')]),
    msg('assistant', [call('c')]),
    msg('tool', [result('c', big(40))]),
    msg('assistant', [text('done')]),
  ])
}

describe('compaction pipeline', () => {
  it('applies decisions non-destructively with tokens before/after and a consistent projection', async () => {
    const c = sample()
    const r = await compact(c, config([step('stub-all')]), deps, registry)
    const stubs = r.decisions.filter((d) => d.kind === 'stub')
    expect(stubs).toHaveLength(2)
    expect(stubs[0]).toMatchObject({
      strategy: 'stub-all',
      reason: 'pruned',
      tokensBefore: 50,
      tokensAfter: 1,
    })
    expect(r.tokensBefore - r.tokensAfter).toBe(49 + 59)
    expect(c.messages[2]?.parts[0]).toEqual(result('a', big(50))) // input untouched
    expect(r.projection.messages[2]?.parts[0]).toMatchObject({ content: [{ text: '[gone]' }] })
    expect(r.invariants.ok).toBe(true)
  })

  it('records a throwing step as failed_open, rolls it back, and keeps running', async () => {
    const r = await compact(sample(), config([step('throws'), step('drop-oldest')]), deps, registry)
    expect(r.steps.map((s) => s.status)).toEqual(['failed_open', 'ran'])
    expect(r.decisions[0]).toMatchObject({ kind: 'failed_open', error: 'boom' })
    // The throwing step's exclusion was undone; only drop-oldest's remains.
    const firstRound = r.decisions.filter((d) => d.round === undefined)
    expect(firstRound.filter((d) => d.kind === 'exclude').map((d) => d.strategy)).toEqual([
      'drop-oldest',
    ])
    // drop-oldest drops once per run; the config re-runs on its projection until it settles
    // (the last group is never dropped), so every invariant, idempotence included, holds.
    expect(r.invariants.ok).toBe(true)
    expect(r.rounds).toBeGreaterThan(1)
  })

  it('runs a step only when its trigger fires, and stops early under a target', async () => {
    const quiet = await compact(
      sample(),
      config([
        step(
          'stub-all',
          {},
          { trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 10_000 }] } },
        ),
      ]),
      deps,
      registry,
    )
    expect(quiet.steps[0]?.status).toBe('not_triggered')
    expect(quiet.changes).toBe(0)
    const early = await compact(
      sample(),
      config([
        step('stub-all', {}, { target: { kind: 'tokens', under: 500 } }),
        step('drop-oldest'),
      ]),
      deps,
      registry,
    )
    expect(early.steps.map((s) => s.status)).toEqual(['ran', 'target_reached'])
  })

  it('refuses to touch protected items and records the attempt', async () => {
    const c = sample()
    const protections = { ...DEFAULT_PROTECTIONS, pinned: [c.messages[2]?.id ?? ''] }
    const r = await compact(c, config([step('stub-all')], { protections }), deps, registry)
    expect(r.decisions.some((d) => d.kind === 'protected' && d.protection === 'pinned')).toBe(true)
    expect(r.invariants.checks.find((x) => x.id === 'protected_intact')?.ok).toBe(true)
  })

  it('never drops the newest group in the fallback and says when still over budget', async () => {
    const c = conv([msg('user', [text(big(30))]), msg('assistant', [text(big(900))])])
    const r = await compact(
      c,
      config([], { fallback: { enabled: true, strict: false } }),
      deps,
      registry,
    )
    expect(r.projection.messages.map((m) => m.id)).toEqual([c.messages[1]?.id])
    expect(r.decisions.some((d) => d.kind === 'skip' && /still/.test(detailOf(d)))).toBe(true)
    expect(r.invariants.ok).toBe(true)
  })

  it('replays model calls with persistent decisions (a sawtooth)', async () => {
    const prepared = prepare(sample(), words)
    const points = await replay(
      prepared,
      config([
        step(
          'stub-all',
          { keep: 0 },
          { trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 100 }] } },
        ),
      ]),
      deps,
      registry,
    )
    expect(points.map((p) => p.index)).toEqual([1, 5, 7])
    const last = points[2]
    expect(last && last.after < last.before).toBe(true)
    expect(points[0]?.fired).toEqual([])
    expect(points[1]?.fired).toEqual(['stub-all'])
  })
})
