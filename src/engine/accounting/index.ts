import type { CallAccounting } from '../compaction/ledger.ts'
import type { Prepared } from '../compaction/prepared.ts'
import { FLAG_RESIDUAL, reconcile } from './reconcile.ts'
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
  const last = reconciliation.figures[reconciliation.figures.length - 1]
  const lastPrefix = last?.prefix ?? reconciliation.prefixTokens
  // Message index → prefix as a dense array: the working view reads it on every context figure
  // (millions of reads in a long replay), where a Map lookup was 1 s of the 200 MB CLI run.
  const prefixByIndex: number[] = []
  for (const f of reconciliation.figures) prefixByIndex[f.index] = f.prefix
  const { scale } = reconciliation
  const accounting: Accounting = {
    reconciliation,
    perCall: { scale, prefixAt: (i) => prefixByIndex[i] ?? lastPrefix },
    lastCall: { scale, prefixAt: () => lastPrefix },
  }
  byKey.set(key, accounting)
  return accounting
}

/** The reconciliation without its per-call figures: what `inspect --json` and reports carry. */
export interface ReconciliationSummary {
  readonly source: Reconciliation['source']
  readonly reportedBy: string | null
  readonly provider: string
  readonly rules: string
  readonly calls: number
  readonly dropped: number
  readonly prefixTokens: number
  readonly subagentPrefixTokens?: number
  readonly scale: number
  readonly prefixFrom: Reconciliation['prefixFrom']
  readonly scaleFrom: Reconciliation['scaleFrom']
  readonly medianAbsError: number | null
  readonly p90AbsError: number | null
  readonly steps: Reconciliation['steps']
  /** Message indexes of calls whose residual is over 10 %. */
  readonly flagged: readonly number[]
  /** The worst flagged calls (at most 200), with their figures, for the UI's list. */
  readonly flaggedCalls: readonly {
    readonly index: number
    readonly thread: string
    readonly estimate: number
    readonly reported: number
    readonly residual: number
  }[]
  readonly ignored: Reconciliation['ignored']
  readonly summary: string
  /** The last model call: its reconstructed context and, when valid, its reported figure. */
  readonly lastCall: {
    readonly index: number
    readonly estimate: number
    readonly reported?: number
  } | null
}

export function summarizeReconciliation(r: Reconciliation): ReconciliationSummary {
  const { figures, ...rest } = r
  const last = figures[figures.length - 1]
  const flaggedCalls = figures
    .filter((f) => f.residual !== undefined && Math.abs(f.residual) > FLAG_RESIDUAL)
    .sort((a, b) => Math.abs(b.residual as number) - Math.abs(a.residual as number))
    .slice(0, 200)
    .map((f) => ({
      index: f.index,
      thread: f.thread,
      estimate: f.estimate,
      reported: f.reported as number,
      residual: f.residual as number,
    }))
  return {
    ...rest,
    flaggedCalls,
    lastCall: last
      ? {
          index: last.index,
          estimate: last.estimate,
          ...(last.reported !== undefined ? { reported: last.reported } : {}),
        }
      : null,
  }
}

/** The figure triggers, targets and headlines use, in words (reports name it). */
export function describeFigure(r: Reconciliation): string {
  const prefix = r.figures[r.figures.length - 1]?.prefix ?? r.prefixTokens
  const how =
    r.source === 'reconciled'
      ? `hidden prefix ${prefix} (${r.prefixFrom}) + ${r.scale.toFixed(3)} (${r.scaleFrom}) × our count`
      : `our count${prefix ? ` + hidden prefix ${prefix} (${r.prefixFrom})` : ''}${r.scale !== 1 ? ` × ${r.scale.toFixed(3)} (${r.scaleFrom})` : ''}`
  return `${r.source} context of the next model call (${how}; ${r.rules})`
}
