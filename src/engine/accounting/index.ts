import type { CallAccounting } from '../compaction/ledger.ts'
import type { Prepared } from '../compaction/prepared.ts'
import { reconcile } from './reconcile.ts'
import type { AccountingOverrides, Reconciliation } from './types.ts'

export { reconcile, usageProblem, quantile, FLAG_RESIDUAL } from './reconcile.ts'
export type * from './types.ts'

export interface Accounting {
  readonly reconciliation: Reconciliation
  /** Per-call prefix and scale, for the working view of replay. */
  readonly perCall: CallAccounting
  /** The last call's prefix and scale, for a run over the whole conversation (and its rounds). */
  readonly lastCall: CallAccounting
}

const cache = new WeakMap<Prepared, Map<string, Accounting>>()

/**
 * The reconciliation of a prepared conversation under the user's overrides, computed once and
 * shared by every run, replay, sweep and report over it: one source for every figure.
 */
export function accountingFor(prepared: Prepared, overrides: AccountingOverrides = {}): Accounting {
  const key = `${overrides.prefixTokens ?? ''}|${overrides.scale ?? ''}`
  let byKey = cache.get(prepared)
  if (!byKey) {
    byKey = new Map()
    cache.set(prepared, byKey)
  }
  const hit = byKey.get(key)
  if (hit) return hit
  const reconciliation = reconcile(prepared, { overrides })
  const prefixByIndex = new Map(reconciliation.figures.map((f) => [f.index, f.prefix]))
  const last = reconciliation.figures[reconciliation.figures.length - 1]
  const lastPrefix = last?.prefix ?? reconciliation.prefixTokens
  const { scale } = reconciliation
  const accounting: Accounting = {
    reconciliation,
    perCall: { scale, prefixAt: (i) => prefixByIndex.get(i) ?? lastPrefix },
    lastCall: { scale, prefixAt: () => lastPrefix },
  }
  byKey.set(key, accounting)
  return accounting
}
