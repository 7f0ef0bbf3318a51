import { quantile } from '../engine/accounting/reconcile.ts'
import type { FleetAggregates, FleetRow, Spread } from './types.ts'

/** Total, median and p90 of the values (the accounting's quantile: one definition app-wide). */
export function spread(values: readonly number[]): Spread {
  let total = 0
  for (const v of values) total += v
  return {
    total,
    median: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    count: values.length,
  }
}

function present(values: readonly (number | null)[]): number[] {
  const out: number[] = []
  for (const v of values) if (v !== null) out.push(v)
  return out
}

/**
 * The fleet's figures from its rows. Rows are summed in the order given; callers pass them sorted
 * (`sortRows`), so one run and a merge of shards add the same numbers in the same order.
 */
export function aggregate(rows: readonly FleetRow[], failed = 0): FleetAggregates {
  let tokensBefore = 0
  let tokensAfter = 0
  let invariantsViolated = 0
  let usedLater = 0
  let untouched = 0
  for (const r of rows) {
    tokensBefore += r.tokens.last.before
    tokensAfter += r.tokens.last.after
    if (!r.invariantsOk) invariantsViolated++
    usedLater += r.usedLater
    if (r.changes === 0) untouched++
  }
  const fraction = spread(rows.map((r) => r.tokens.last.savedFraction))
  return {
    conversations: rows.length,
    failed,
    tokensBefore,
    tokensAfter,
    saved: spread(rows.map((r) => r.tokens.last.saved)),
    // The fleet-wide fraction is saved over before in all, not a sum of per-conversation fractions.
    savedFraction: {
      ...fraction,
      total: tokensBefore > 0 ? (tokensBefore - tokensAfter) / tokensBefore : 0,
    },
    costBefore: spread(present(rows.map((r) => r.cost.before))),
    costAfter: spread(present(rows.map((r) => r.cost.after))),
    costSaved: spread(present(rows.map((r) => r.cost.saved))),
    invariantsViolated,
    usedLater,
    untouched,
  }
}
