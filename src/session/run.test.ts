import { describe, expect, it } from 'vitest'
import { inspectConversation } from '../engine/inspect.ts'
import type { Conversation } from '../engine/model.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { importTranscript } from '../formats/index.ts'
import { MAX_DECISIONS } from './types.ts'
import { wireDecisionList } from './decisions.ts'
import { BudgetPricing, STUBS, sumCategories } from './budget.ts'
import { INFERRED } from './context-budget.ts'
import {
  PreparedCache,
  groupStatuses,
  replayRecord,
  runSummary,
  transferablesOf,
  type RunOutcome,
} from './run.ts'

/** An OpenAI chat body where the agent reads the same file three times. */
function conversation(): Conversation {
  const file = (v: number) => `// version ${v}\n` + 'export const x = 1\n'.repeat(60)
  const read = (id: string) => ({
    id,
    type: 'function',
    function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
  })
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the bug in src/a.ts' },
      { role: 'assistant', content: null, tool_calls: [read('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: file(1) },
      { role: 'assistant', content: null, tool_calls: [read('c2')] },
      { role: 'tool', tool_call_id: 'c2', content: file(2) },
      { role: 'assistant', content: null, tool_calls: [read('c3')] },
      { role: 'tool', tool_call_id: 'c3', content: file(3) },
      { role: 'assistant', content: 'Fixed.' },
    ],
  }
  const { result } = importTranscript(JSON.stringify(body), { fileName: 'chat.json' })
  if (!result.ok) throw new Error(result.error.message)
  return result.conversation
}

const SMALL = {
  version: 1,
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 1 } }],
}

function ran(outcome: RunOutcome) {
  if (outcome.kind !== 'ran') throw new Error(`expected a run, got ${JSON.stringify(outcome)}`)
  return outcome.summary
}

describe('runSummary', () => {
  const conv = conversation()

  it('stubs the superseded reads and accounts for them in a stubs category', async () => {
    const s = ran(await runSummary(conv, estimateCounter, SMALL, { cache: new PreparedCache() }))
    expect(s.configName).toBe('custom')
    expect(s.tokenizer).toBe('estimate')
    // The oldest read is dropped (one stub per resource is enough), the next stubbed, the
    // newest kept.
    const reads = s.groups.kinds.flatMap((k, i) => (k === 'tool_call' ? [i] : []))
    expect(reads.map((i) => s.groups.status[i])).toEqual(['excluded', 'stubbed', 'kept'])
    expect(s.groups.tokensAfter[reads[0] as number]).toBe(0)
    expect(s.changes).toBe(2)
    expect(s.noChange).toBeNull()
    expect(
      wireDecisionList(s.decisions)
        .map((d) => d.kind)
        .sort(),
    ).toEqual(['exclude', 'stub'])
    expect(s.decisionCount).toBe(s.decisions.length)
    expect(s.decisions.length).toBeLessThanOrEqual(MAX_DECISIONS)
    expect(s.invariants.ok).toBe(true)
    expect(s.steps.map((x) => [x.strategy, x.status])).toEqual([['supersede-stale-results', 'ran']])

    // Budget: with nothing reported (no hidden prefix, scale 1) and one context, before equals
    // the inspect report; after is smaller and holds the stubs.
    const inspected = inspectConversation(conv, estimateCounter).tokens
    expect(s.budget.before).toEqual({ ...inspected.byCategory, [STUBS]: 0, [INFERRED]: 0 })
    expect(s.accounting.reconciliation.source).toBe('estimated')
    expect(s.tokens.before).toBe(inspected.total)
    expect(s.budget.after[STUBS]).toBeGreaterThan(0)
    expect(s.budget.after.tool_results).toBeLessThan(s.budget.before.tool_results as number)
    expect(s.tokens.after).toBeLessThan(s.tokens.before)
    expect(s.tokens.after).toBe(sumCategories(s.budget.after))
    expect(s.tokens.before).toBe(sumCategories(s.budget.before))
    expect(s.tokens).toMatchObject({ window: 2000, reservedOutput: 100, buffer: 0, usable: 1900 })

    // Per-group series: typed, aligned with the ids, and summing to the message tokens.
    const n = s.groups.ids.length
    expect(s.groups.tokensBefore).toBeInstanceOf(Float64Array)
    expect(s.groups.tokensBefore).toHaveLength(n)
    expect(s.groups.tokensAfter).toHaveLength(n)
    expect(s.groups.kinds).toHaveLength(n)
    expect(s.groups.status).toHaveLength(n)
    const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0)
    const framingAndTools = (s.budget.before.tools as number) + 3
    expect(sum(s.groups.tokensBefore) + framingAndTools).toBe(s.tokens.before)
    expect(sum(s.groups.tokensAfter) + framingAndTools).toBe(s.tokens.after)
    s.groups.status.forEach((status, i) => {
      const before = s.groups.tokensBefore[i] as number
      const after = s.groups.tokensAfter[i] as number
      if (status === 'stubbed') expect(after).toBeLessThan(before)
      else if (status === 'kept') expect(after).toBe(before)
    })
    expect(s.replay).toBeNull()
    // Two group arrays and the decisions' seven columns; the group facts came with the load.
    expect(transferablesOf(s)).toHaveLength(9)
  })

  it('replays with aligned typed arrays', async () => {
    const s = ran(
      await runSummary(conv, estimateCounter, SMALL, { replay: true, cache: new PreparedCache() }),
    )
    const r = s.replay
    if (!r) throw new Error('no replay')
    expect(r.index).toBeInstanceOf(Int32Array)
    // One point per model call after the first message: the four assistant messages.
    expect(r.index.length).toBe(4)
    for (const a of [r.before, r.after, r.reported, r.costBefore, r.costAfter, r.rewrites])
      expect(a).toHaveLength(r.index.length)
    expect(r.fired).toHaveLength(r.index.length)
    // No usage in the body: every reported value is NaN.
    expect([...r.reported].every(Number.isNaN)).toBe(true)
    expect(r.after.at(-1)).toBeLessThan(r.before.at(-1) as number)
    expect(r.fired.flat()).toContain('supersede-stale-results')
    // Two group arrays, seven decision columns and seven replay arrays.
    expect(transferablesOf(s)).toHaveLength(16)
  })

  it('runs presets by id, and prices the conversation once per counter', async () => {
    const cache = new PreparedCache()
    for (const preset of ['lip', 'recommended']) {
      const s = ran(await runSummary(conv, estimateCounter, null, { preset, cache }))
      expect(s.configName).toBe(preset)
      expect(s.tokens.window).toBe(200_000)
      // Far under the presets' thresholds: nothing changes.
      expect(s.changes).toBe(0)
      // …and the summary says why, for the headline.
      expect(s.noChange).toMatch(/^Nothing changed: not triggered at \d+ % of the usable window/)
      expect(s.tokens.after).toBe(s.tokens.before)
      expect(s.groups.status.every((x) => x === 'kept' || x === 'protected')).toBe(true)
      expect(cache.has(conv, estimateCounter)).toBe(true)
    }
    const phases: string[] = []
    await runSummary(conv, estimateCounter, SMALL, {
      cache,
      checkpoint: (phase) => {
        phases.push(phase)
        return true
      },
    })
    // Cached: no `prepare` phase on a re-run.
    expect(phases).toEqual(['compact', 'summarize'])
  })

  it('returns every config issue with its path, and runs nothing', async () => {
    const bad = {
      ...SMALL,
      window: { contextTokens: -1, reservedOutput: 100 },
      pipeline: [{ strategy: 'no-such-strategy', params: {} }],
    }
    const outcome = await runSummary(conv, estimateCounter, bad)
    expect(outcome.kind).toBe('invalid')
    if (outcome.kind !== 'invalid') return
    expect(outcome.issues.map((i) => i.path)).toContain('window.contextTokens')

    const params = await runSummary(conv, estimateCounter, {
      ...SMALL,
      pipeline: [{ strategy: 'supersede-stale-results', params: { minToolOutputTokens: 'x' } }],
    })
    expect(params).toMatchObject({ kind: 'invalid' })
    if (params.kind === 'invalid')
      expect(params.issues[0]?.path).toBe('pipeline[0].params.minToolOutputTokens')

    const strategy = await runSummary(conv, estimateCounter, {
      ...SMALL,
      pipeline: [{ strategy: 'no-such-strategy' }],
    })
    expect(strategy).toMatchObject({ kind: 'invalid', issues: [{ path: 'pipeline[0].strategy' }] })

    expect(await runSummary(conv, estimateCounter, { window: {} })).toMatchObject({
      kind: 'invalid',
      issues: [{ path: 'version' }],
    })
    expect(await runSummary(conv, estimateCounter, null, { preset: 'nope' })).toMatchObject({
      kind: 'invalid',
      issues: [{ path: 'preset' }],
    })
    expect(await runSummary(conv, estimateCounter, '{"version": 1,')).toMatchObject({
      kind: 'invalid',
    })
  })

  it('accepts config text and stops when a checkpoint says the run is stale', async () => {
    const text = JSON.stringify(SMALL)
    expect(ran(await runSummary(conv, estimateCounter, text)).changes).toBe(2)
    const stale = await runSummary(conv, estimateCounter, SMALL, {
      cache: new PreparedCache(),
      checkpoint: (phase) => phase !== 'compact',
    })
    expect(stale).toEqual({ kind: 'stale' })
  })
})

describe('BudgetPricing', () => {
  it('moves compacted parts and inserted summaries to stubs, keeping totals', () => {
    const conv = conversation()
    const pricing = new BudgetPricing(conv, estimateCounter)
    const tool = conv.messages.find((m) => m.role === 'tool')
    if (!tool) throw new Error('no tool message')
    const plain = pricing.message(tool)
    const [part] = tool.parts
    if (!part) throw new Error('no part')
    const stubbed = { ...tool, parts: [{ ...part, meta: { compactedBy: ['x'] } }] }
    const moved = pricing.projected(stubbed)
    expect(moved.total).toBe(plain.total)
    expect(moved.byCategory[STUBS]).toBe(plain.total - 3)
    expect(moved.byCategory.tool_results ?? 0).toBe(0)
    expect(moved.byCategory.framing).toBe(3)

    const summary = {
      ...tool,
      id: 'sum',
      role: 'user' as const,
      summaryOf: { strategy: 's', groups: [] },
    }
    const s = pricing.projected(summary)
    expect(s.byCategory).toEqual({ [STUBS]: s.total })

    const projection = { ...conv, messages: [...conv.messages.filter((m) => m !== tool), stubbed] }
    const after = pricing.budget(projection, true)
    const before = pricing.budget(conv, false)
    expect(sumCategories(after)).toBe(sumCategories(before))
    expect(after[STUBS]).toBe(plain.total - 3)
    expect(before[STUBS]).toBe(0)
  })
})

describe('groupStatuses', () => {
  const base = {
    strategy: 's',
    step: 0,
    reason: 'pruned',
    sentence: '',
    tokensBefore: 1,
    tokensAfter: 0,
  } as const
  const ref = { message: 0, part: 0 }
  it('ranks summarised/excluded over stubbed over trimmed over protected over kept', () => {
    const statuses = groupStatuses(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      [
        { ...base, kind: 'exclude', groupId: 'a' },
        { ...base, kind: 'exclude', groupId: 'b' },
        {
          ...base,
          kind: 'insert',
          groupId: 'b',
          covers: ['b'],
          position: 'before',
          summary: { id: 's', role: 'user', parts: [] },
        },
        { ...base, kind: 'stub', groupId: 'c', messageId: 'm', target: ref, replacement: null },
        { ...base, kind: 'trim', groupId: 'c', messageId: 'm', target: ref, replacement: null },
        { ...base, kind: 'trim', groupId: 'd', messageId: 'm', target: ref, replacement: null },
        { ...base, kind: 'protected', groupId: 'e', attempted: 'stub', protection: 'system' },
        { ...base, kind: 'skip', groupId: 'f' },
      ],
    )
    expect(statuses).toEqual([
      'excluded',
      'summarised',
      'stubbed',
      'trimmed',
      'protected',
      'kept',
      'kept',
    ])
  })
})

describe('replayRecord', () => {
  it('gives the same series as a run with replay, and stops when the checkpoint says so', async () => {
    const conv = conversation()
    const cache = new PreparedCache()
    const outcome = await runSummary(conv, estimateCounter, SMALL, { replay: true, cache })
    if (outcome.kind !== 'ran') throw new Error(outcome.kind)
    const calls: [number, number][] = []
    const series = await replayRecord(outcome.record, (done, total) => {
      calls.push([done, total])
      return true
    })
    expect(series?.after).toEqual(outcome.summary.replay?.after)
    expect(series?.fired).toEqual(outcome.summary.replay?.fired)
    // Offered before the first call (and every REPLAY_CHECKPOINT_EVERY after), with the total.
    expect(calls[0]).toEqual([0, 4])
    expect(await replayRecord(outcome.record, () => false)).toBeNull()
  })
})
