import { describe, expect, it } from 'vitest'
import { prepare } from '../compaction/prepared.ts'
import { maxOf } from '../arrays.ts'
import { reconcile } from './reconcile.ts'
import { counter, synthetic } from './accounting.testing.ts'

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
