/**
 * Settle: the idempotence round of a run that was sent after its first round (`settleLater`,
 * the app's first paint). The run is compacted again in full — exactly the call every other
 * run makes — so the settled figures are the ones a single full run gives, by construction.
 *
 * Pure: the worker calls it after the first summary went out; the CLI never defers.
 */
import { now } from './clock.ts'
import { riskOfRun } from './risk.ts'
import { compactPrepared, offlineDeps, type RunRecord } from './run.ts'
import { summarize, wireInvariants } from './summarize.ts'
import type { RiskReport } from '../engine/risk/index.ts'
import type { RunSummary, Settled } from './types.ts'

/** The settled record (it replaces the first-round one) and what the UI needs to catch up. */
export interface SettledRun {
  readonly record: RunRecord
  readonly settled: Settled
}

/**
 * Run `record`'s config again in full and compare with its first round. When the later rounds
 * changed nothing (`rounds ≤ 1`), the full run's decisions, projection and figures are the first
 * round's — the engine is deterministic and stops before adding an unchanged round — so only the
 * invariants differ (the `idempotent` check joins them). Otherwise every figure may differ and
 * the whole settled summary goes back.
 */
export async function settleRun(record: RunRecord): Promise<SettledRun> {
  if (!record.summary.settling) {
    return { record, settled: { kind: 'same', invariants: record.summary.invariants, ms: 0 } }
  }
  const started = now()
  const deps = offlineDeps(record.prepared.counter)
  const result = await compactPrepared(record.prepared, record.config, deps)
  const entry = { prepared: record.prepared, pricing: record.pricing }
  const same = result.rounds <= 1 && result.decisions.length === record.result.decisions.length
  if (same) {
    const invariants = wireInvariants(record.prepared, result.invariants)
    const summary: RunSummary = { ...record.summary, invariants, settling: false }
    // Same decisions and projection: the first record's risk (computed or not) is this one's.
    return {
      record: settledRecord(record, result, summary, () => record.risk),
      settled: { kind: 'same', invariants, ms: now() - started },
    }
  }
  let risk: RiskReport | null = null
  const summary: RunSummary = {
    ...summarize(entry, record.config, result, null, 0, null),
    ms: record.summary.ms + now() - started,
  }
  const riskOfSettled = () => (risk ??= riskOfRun(record.prepared, result))
  return {
    record: settledRecord(record, result, summary, riskOfSettled),
    settled: { kind: 'changed', summary },
  }
}

/** `first`'s record with the full run's result and summary; its risk is read when asked. */
function settledRecord(
  first: RunRecord,
  result: RunRecord['result'],
  summary: RunSummary,
  riskOf: () => RiskReport,
): RunRecord {
  return {
    config: first.config,
    result,
    prepared: first.prepared,
    pricing: first.pricing,
    summary,
    get risk() {
      return riskOf()
    },
  }
}
