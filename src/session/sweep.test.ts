import { describe, expect, it } from 'vitest'
import { estimateCounter } from '../engine/tokens/index.ts'
import { sweepConfig, type SweepOutcome } from './sweep.ts'
import { clearing, readingConversation, SUPERSEDE } from './test-conversation.ts'

const go = { checkpoint: () => Promise.resolve(true) }

function swept(outcome: SweepOutcome) {
  if (outcome.kind !== 'swept') throw new Error(`expected a sweep, got ${JSON.stringify(outcome)}`)
  return outcome.points
}

describe('sweepConfig', () => {
  const conv = readingConversation()

  it('keeping more tool results leaves more tokens, one point per value', async () => {
    const values = [0, 1, 2, 3, 4, 5]
    const points = swept(
      await sweepConfig(conv, estimateCounter, clearing(3), 'pipeline[0].params.keep', values, go),
    )
    expect(points.map((p) => p.value)).toEqual(values)
    expect(points.every((p) => p.ok && p.violations === 0)).toBe(true)
    for (let i = 1; i < points.length; i++) {
      const [prev, next] = [points[i - 1], points[i]]
      expect(next?.after).toBeGreaterThan(prev?.after as number)
      expect(next?.changes).toBeLessThan(prev?.changes as number)
    }
    const [first, last] = [points[0], points.at(-1)]
    expect(first?.changes).toBe(5)
    // Keeping all five reads changes nothing.
    expect(last).toMatchObject({ changes: 0, saved: 0 })
    for (const p of points) {
      expect(p.saved).toBe(p.before - p.after)
      expect(p.before).toBe(first?.before)
    }
  })

  it('sweeps a trigger level and a param left at its default', async () => {
    const withTrigger = {
      ...SUPERSEDE,
      pipeline: [
        {
          ...SUPERSEDE.pipeline[0],
          trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 0 }] },
        },
      ],
    }
    const points = swept(
      await sweepConfig(
        conv,
        estimateCounter,
        withTrigger,
        'pipeline[0].trigger.conditions[0].over',
        [0, 1_000_000],
        go,
      ),
    )
    expect(points.map((p) => p.changes)).toEqual([2, 0])
    // `clearAtLeast` is not in the config: its default (0) is there once validated.
    const atLeast = swept(
      await sweepConfig(
        conv,
        estimateCounter,
        clearing(0),
        'pipeline[0].params.clearAtLeast',
        [0, 1e9],
        go,
      ),
    )
    expect(atLeast.map((p) => p.changes)).toEqual([5, 0])
  })

  it('marks a value the config rejects, and still computes the others', async () => {
    const points = swept(
      await sweepConfig(conv, estimateCounter, SUPERSEDE, 'window.contextTokens', [50, 20_000], go),
    )
    expect(points[0]).toMatchObject({ value: 50, ok: false })
    expect(points[0]?.error).toMatch(/^window: reservedOutput/)
    expect(points[1]).toMatchObject({ value: 20_000, ok: true, changes: 2 })

    const negative = swept(
      await sweepConfig(conv, estimateCounter, clearing(1), 'pipeline[0].params.keep', [-1], go),
    )
    expect(negative[0]?.error).toMatch(/pipeline\[0\]\.params\.keep: keep must be 0 or more/)
  })

  it('refuses a path that leads to no number, and an invalid base config', async () => {
    for (const path of ['pipeline[3].params.keep', 'window.nope', 'pipeline[0].strategy', 'x[']) {
      const outcome = await sweepConfig(conv, estimateCounter, SUPERSEDE, path, [1, 2], go)
      expect(outcome).toMatchObject({ kind: 'invalid', issues: [{ path }] })
    }
    const bad = await sweepConfig(
      conv,
      estimateCounter,
      { version: 1 },
      'window.contextTokens',
      [1],
      go,
    )
    expect(bad.kind).toBe('invalid')
    if (bad.kind === 'invalid')
      expect(bad.issues.map((i) => i.path)).toEqual(['window', 'pipeline'])
  })

  it('reports progress before each point and stops when the checkpoint says stale', async () => {
    const seen: [number, number][] = []
    const outcome = await sweepConfig(
      conv,
      estimateCounter,
      clearing(0),
      'pipeline[0].params.keep',
      [0, 1, 2, 3],
      {
        checkpoint: (done, total) => {
          seen.push([done, total])
          return Promise.resolve(done < 2)
        },
      },
    )
    expect(outcome).toEqual({ kind: 'stale' })
    expect(seen).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
    ])
  })
})
