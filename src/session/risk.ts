/**
 * Removed-then-used risk of a run, condensed for the UI: the engine computes it once per run
 * (`assessRisk`, its per-conversation index cached), and every view — the Compaction facts, the
 * Why tab, compare, sweep, the report export — reads this one figure.
 */
import type { Prepared } from '../engine/compaction/prepared.ts'
import { assessRisk, type RiskInput, type RiskReport } from '../engine/risk/index.ts'
import { MAX_RISK_ITEMS, type RiskFigures, type RunRisk } from './types-risk.ts'

export function riskOfRun(prepared: Prepared, result: RiskInput): RiskReport {
  return assessRisk(prepared, result)
}

/** The summary's copy: items capped like decisions, the count kept. */
export function runRisk(report: RiskReport): RunRisk {
  return {
    usedLater: report.usedLater,
    tokens: report.tokens,
    items: report.items.slice(0, MAX_RISK_ITEMS),
    itemCount: report.items.length,
  }
}

export function riskFigures(report: RiskReport): RiskFigures {
  return { usedLater: report.usedLater, tokens: report.tokens }
}
