import { describe, expect, it } from 'vitest'
import { estimateCounter } from '../engine/tokens/index.ts'
import { compareConfigs, type CompareOutcome } from './compare.ts'
import { runSummary } from './run.ts'
import { clearing, readingConversation, SUPERSEDE } from './test-conversation.ts'

function compared(outcome: CompareOutcome) {
  if (outcome.kind !== 'compared')
    throw new Error(`expected a comparison, got ${JSON.stringify(outcome)}`)
  return outcome.result
}

describe('compareConfigs', () => {
  const conv = readingConversation()

  it('finds no difference between a config and itself', async () => {
    const r = compared(await compareConfigs(conv, estimateCounter, SUPERSEDE, SUPERSEDE))
    expect(r.differing).toEqual([])
    expect(r.a).toEqual(r.b)
    expect(r.a).toMatchObject({ configName: 'custom', changes: 2, invariantsOk: true })
    expect(r.a.after).toBeLessThan(r.a.before)
  })

  it('lists the groups a stronger config decides differently about, with both sides', async () => {
    const r = compared(await compareConfigs(conv, estimateCounter, SUPERSEDE, clearing(2)))
    const reads = await runSummary(conv, estimateCounter, SUPERSEDE)
    if (reads.kind !== 'ran') throw new Error('no run')
    const toolGroups = reads.summary.groups.kinds.flatMap((k, i) => (k === 'tool_call' ? [i] : []))
    expect(toolGroups).toHaveLength(5)
    // The three oldest reads: a.ts v1 (excluded vs cleared), v2 (stubbed by another strategy),
    // v3 (kept vs cleared). b.ts and c.ts are the newest two: kept by both.
    expect(r.differing.map((d) => d.index)).toEqual(toolGroups.slice(0, 3))
    const [v1, v2, v3] = r.differing
    expect(v1?.a).toMatchObject({
      status: 'excluded',
      after: 0,
      strategy: 'supersede-stale-results',
    })
    expect(v1?.b).toMatchObject({ status: 'stubbed', strategy: 'clear-tool-uses' })
    expect(v1?.b.after).toBeGreaterThan(0)
    expect(v2?.a.status).toBe(v2?.b.status)
    expect(v2?.a.strategy).not.toBe(v2?.b.strategy)
    expect(v3?.a).toMatchObject({ status: 'kept', reason: '', strategy: '' })
    expect(v3?.b.status).toBe('stubbed')
    expect(v3?.b.after).toBeLessThan(v3?.a.after as number)
    for (const d of r.differing) {
      expect(d.groupId).toBe(reads.summary.groups.ids[d.index])
      expect(d.kind).toBe('tool_call')
    }
    expect(r.b.changes).toBe(3)
    expect(r.b.before).toBe(r.a.before)
  })

  it('says which config is invalid: issues of b are prefixed', async () => {
    const badB = { ...SUPERSEDE, pipeline: [{ strategy: 'no-such-strategy' }] }
    expect(await compareConfigs(conv, estimateCounter, SUPERSEDE, badB)).toMatchObject({
      kind: 'invalid',
      issues: [{ path: 'b.pipeline[0].strategy' }],
    })
    const both = await compareConfigs(conv, estimateCounter, { version: 1 }, badB)
    expect(both.kind).toBe('invalid')
    if (both.kind === 'invalid')
      expect(both.issues.map((i) => i.path)).toEqual([
        'window',
        'pipeline',
        'b.pipeline[0].strategy',
      ])
  })
})
