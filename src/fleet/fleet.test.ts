import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDigestSummarizer } from '../engine/summarize/digest.ts'
import { estimateCounter } from '../engine/tokens/index.ts'
import { presetConfig } from '../config/presets.ts'
import { generateFleet } from '../../scripts/sample/fleet-fixtures.ts'
import { maxOf, minOf } from '../engine/arrays.ts'
import { aggregate } from './aggregate.ts'
import { runChain } from './chain.ts'
import { evaluateFile, fleetConfigRef } from './evaluate.ts'
import { buildFleetPartial, buildFleetReport, mergePartials } from './report.ts'
import { parseShard, shard } from './shard.ts'
import type { FleetRow } from './types.ts'

function row(name: string, before: number, after: number, cost: number | null = null): FleetRow {
  return {
    name,
    item: 0,
    itemName: null,
    format: 'openai-chat',
    model: null,
    messages: 10,
    calls: 4,
    tokens: {
      last: { before, after, saved: before - after, savedFraction: (before - after) / before },
      peak: { before, after },
    },
    cost: {
      before: cost,
      after: cost === null ? null : cost / 2,
      saved: cost === null ? null : cost / 2,
    },
    fired: {},
    firstCompactionCall: before === after ? null : 2,
    changes: before === after ? 0 : 1,
    invariantsOk: true,
    usedLater: 0,
  }
}

const REF = { name: 'test', digest: '0000000000000000' }
const encoder = new TextEncoder()

describe('aggregate', () => {
  it('sums, and takes median / p90 of savings per conversation; cost only over priced rows', () => {
    const rows = [row('a', 100, 50, 2), row('b', 100, 100), row('c', 200, 20, 4), row('d', 100, 90)]
    const a = aggregate(rows, 1)
    expect(a.conversations).toBe(4)
    expect(a.failed).toBe(1)
    expect(a.tokensBefore).toBe(500)
    expect(a.tokensAfter).toBe(260)
    expect(a.saved.total).toBe(240)
    // Saved per conversation: 0, 10, 50, 180 → median 30, p90 at 2.7 → 50 + 0.7 × 130 = 141.
    expect(a.saved.median).toBe(30)
    expect(a.saved.p90).toBeCloseTo(141)
    expect(a.savedFraction.total).toBeCloseTo(240 / 500)
    expect(a.costBefore).toMatchObject({ total: 6, count: 2 })
    expect(a.costSaved.median).toBe(1.5)
    expect(a.untouched).toBe(1)
  })

  it('has null quantiles for an empty fleet', () => {
    const a = aggregate([])
    expect(a.saved).toEqual({ total: 0, median: null, p90: null, count: 0 })
  })
})

describe('shard', () => {
  it('splits any list into disjoint slices covering it, sizes within one, whatever its order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 12 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        (paths, n) => {
          const slices = Array.from({ length: n }, (_, i) => shard(paths, i + 1, n))
          const reversed = Array.from({ length: n }, (_, i) =>
            shard([...paths].reverse(), i + 1, n),
          )
          expect(reversed).toEqual(slices)
          const all = slices.flat()
          expect(new Set(all).size).toBe(all.length)
          expect([...all].sort()).toEqual([...paths].sort())
          const sizes = slices.map((s) => s.length)
          expect(maxOf(sizes) - minOf(sizes)).toBeLessThanOrEqual(1)
        },
      ),
    )
  })

  it('parses i/n and refuses the rest', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 })
    expect(parseShard('0/3')).toBeNull()
    expect(parseShard('4/3')).toBeNull()
    expect(parseShard('1-3')).toBeNull()
    expect(() => shard(['a'], 2, 1)).toThrow(RangeError)
  })
})

describe('mergePartials', () => {
  it('gives the report of one run, for any rows and any split', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            name: fc.string({ minLength: 1, maxLength: 8 }),
            before: fc.integer({ min: 1, max: 1e6 }),
            cut: fc.double({ min: 0, max: 1, noNaN: true }),
            cost: fc.option(fc.double({ min: 0, max: 50, noNaN: true })),
          }),
          { selector: (r) => r.name, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 6 }),
        (specs, n) => {
          const rows = specs.map((s) => row(s.name, s.before, Math.round(s.before * s.cut), s.cost))
          const whole = buildFleetReport(REF, rows.length, rows, [])
          const names = rows.map((r) => r.name)
          const partials = Array.from({ length: n }, (_, i) => {
            const mine = new Set(shard(names, i + 1, n))
            const part = rows.filter((r) => mine.has(r.name))
            return buildFleetPartial(REF, { index: i + 1, count: n }, part.length, part, [])
          }).reverse()
          const merged = mergePartials(partials)
          expect(merged).toEqual({ ok: true, report: whole })
        },
      ),
    )
  })

  it('refuses a missing shard, a shard twice and partials of another config', () => {
    const p = (i: number, n: number, digest = REF.digest) =>
      buildFleetPartial({ ...REF, digest }, { index: i, count: n }, 0, [], [])
    expect(mergePartials([p(1, 3), p(3, 3)])).toEqual({ ok: false, message: 'missing shard 2/3' })
    expect(mergePartials([p(1, 2), p(1, 2)])).toMatchObject({
      ok: false,
      message: 'shard 1/2 given twice',
    })
    expect(mergePartials([p(1, 2), p(2, 2, 'ffff')])).toMatchObject({ ok: false })
    expect(mergePartials([p(1, 2), p(2, 3)])).toMatchObject({ ok: false })
    expect(mergePartials([])).toMatchObject({ ok: false })
  })
})

describe('evaluateFile', () => {
  const fleet = {
    config: { ...presetConfig('recommended'), tokenizer: 'estimate' as const },
    preset: 'recommended',
  }
  const deps = { counter: estimateCounter, summarizer: createDigestSummarizer() }

  it('reads every figure of a row from the chain compact runs', async () => {
    const [fixture] = generateFleet(1, 11, { min: 600, max: 600 })
    const bytes = encoder.encode(fixture?.text)
    const outcomes = await evaluateFile(bytes, 'a.jsonl', fleet, deps)
    const chain = await runChain({ bytes, fileName: 'a.jsonl' }, fleet, deps)
    if (chain.kind !== 'done' || outcomes?.[0]?.kind !== 'row') throw new Error('expected a row')
    const r = outcomes[0].row
    expect(r.tokens.last).toMatchObject({
      before: chain.report.tokens.before,
      after: chain.report.tokens.after,
      saved: chain.report.tokens.saved,
    })
    expect(r.calls).toBe(chain.points.length)
    expect(r.cost.before).toBe(chain.report.cost?.before)
    expect(r.usedLater).toBe(chain.report.risk.usedLater)
    expect(r.invariantsOk).toBe(chain.report.invariants.ok)
    const firing = chain.points.filter((p) => p.fired.length > 0)
    expect(Object.values(r.fired).reduce((s, n) => s + n, 0)).toBe(
      firing.reduce((s, p) => s + p.fired.length, 0),
    )
    expect(r.firstCompactionCall).toBe(
      firing.length > 0 ? chain.points.indexOf(firing[0]!) + 1 : null,
    )
    expect(r.tokens.peak.before).toBeGreaterThanOrEqual(r.tokens.peak.after)
    expect(r.messages).toBe(chain.conversation.messages.length)
  })

  it('turns an unreadable file into that file’s failure, with where and why', async () => {
    const outcomes = await evaluateFile(
      encoder.encode('{"not": "a transcript"'),
      'bad.json',
      fleet,
      deps,
    )
    expect(outcomes).toHaveLength(1)
    expect(outcomes?.[0]).toMatchObject({ kind: 'failed', failure: { name: 'bad.json' } })
  })

  it('stops when a checkpoint says so', async () => {
    const [fixture] = generateFleet(1, 12, { min: 200, max: 200 })
    const outcomes = await evaluateFile(encoder.encode(fixture?.text), 'a.jsonl', fleet, deps, {
      checkpoint: () => false,
    })
    expect(outcomes).toBeNull()
  })

  it('names the config by a digest that ignores key order and sees any change', () => {
    const a = fleetConfigRef(fleet)
    const reordered = Object.fromEntries(
      Object.entries(fleet.config).reverse(),
    ) as typeof fleet.config
    expect(fleetConfigRef({ ...fleet, config: reordered }).digest).toBe(a.digest)
    expect(
      fleetConfigRef({ ...fleet, config: { ...fleet.config, name: 'other' } }).digest,
    ).not.toBe(a.digest)
  })
})
