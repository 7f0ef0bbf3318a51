import { quantile } from '../accounting/reconcile.ts'
import type { ReplayPoint } from '../compaction/replay.ts'

/** A session's cost, summed over its calls, and how well the cache model matches the log. */
export interface SessionCost {
  /** USD over every priced call, uncompacted and under the config (null: nothing priced). */
  readonly before: number | null
  readonly after: number | null
  /** USD the config's cache re-writes cost over reading the same tokens from the cache. */
  readonly cacheRewrites: number | null
  /** Calls priced / calls in all (a model without a price leaves its calls out). */
  readonly pricedCalls: number
  readonly calls: number
  /**
   * Per compaction (a call where the config changed the prompt): after how many calls its savings
   * paid back what it cost (re-writes included); null when it never did within the session.
   */
  readonly breakEven: readonly { readonly index: number; readonly paysBackAfter: number | null }[]
  /** The cache model against the transcript's reported cache reads (uncompacted). */
  readonly cacheCheck: {
    readonly calls: number
    /** Median and p90 of |modelled − reported cache read| / the call's reported context. */
    readonly medianAbsError: number | null
    readonly p90AbsError: number | null
  }
}

export function sessionCost(points: readonly ReplayPoint[]): SessionCost {
  let before = 0
  let after = 0
  let rewrites = 0
  let priced = 0
  const errors: number[] = []
  for (const p of points) {
    if (p.cost.before !== null && p.cost.after !== null) {
      before += p.cost.before
      after += p.cost.after
      rewrites += p.rewriteCost ?? 0
      priced++
    }
    if (p.reportedCacheRead !== undefined && p.reported !== undefined && p.reported > 0)
      errors.push(Math.abs(p.cacheRead - p.reportedCacheRead) / p.reported)
  }
  const breakEven: { index: number; paysBackAfter: number | null }[] = []
  points.forEach((p, k) => {
    if (p.fired.length === 0 || p.cost.before === null) return
    // Savings since this compaction, call by call, until they cover what it cost.
    let balance = 0
    let paid: number | null = null
    for (let j = k; j < points.length; j++) {
      const q = points[j] as ReplayPoint
      if (q.cost.before === null || q.cost.after === null) continue
      balance += q.cost.before - q.cost.after
      if (balance >= 0 && j > k) {
        paid = j - k
        break
      }
      if (balance >= 0 && j === k) {
        paid = 0
        break
      }
    }
    breakEven.push({ index: p.index, paysBackAfter: paid })
  })
  return {
    before: priced > 0 ? before : null,
    after: priced > 0 ? after : null,
    cacheRewrites: priced > 0 ? rewrites : null,
    pricedCalls: priced,
    calls: points.length,
    breakEven,
    cacheCheck: {
      calls: errors.length,
      medianAbsError: quantile(errors, 0.5),
      p90AbsError: quantile(errors, 0.9),
    },
  }
}
