import {
  describeFigure,
  summarizeReconciliation,
  type ReconciliationSummary,
} from '../engine/accounting/index.ts'
import type { ReplayPoint } from '../engine/compaction/replay.ts'
import type { SessionCost } from '../engine/cost/summary.ts'
import type { CompactionResult } from '../engine/compaction/run.ts'
import type { Decision } from '../engine/compaction/types.ts'
import { detailOf } from '../engine/compaction/sentence.ts'
import type { RiskReport } from '../engine/risk/types.ts'
import { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, isCsvColumn, type CsvColumn } from './csv-columns.ts'

export { CSV_COLUMNS, DEFAULT_CSV_COLUMNS, isCsvColumn, type CsvColumn }

/**
 * Reports of a compaction run (SPEC §7, §8): the JSON report `compaction-lab compact --report`
 * writes, and a CSV of its decisions. Pure TS (no Node APIs) so the Web Worker builds the same
 * files the CLI writes.
 */

/** The report `compact` writes (SPEC §8). */
export interface CompactReport {
  readonly file: string
  readonly format: string
  readonly config: { readonly name: string; readonly preset?: string }
  readonly tokens: {
    readonly before: number
    readonly after: number
    readonly saved: number
    readonly usable: number
  }
  readonly decisions: readonly ReportDecision[]
  readonly steps: CompactionResult['steps']
  readonly invariants: {
    readonly ok: boolean
    readonly violations: readonly { id: string; detail: string; offenders: readonly string[] }[]
  }
  /**
   * Which figure `tokens`, triggers and targets use, and how it was reconciled with the
   * transcript's reported usage.
   */
  readonly accounting: {
    readonly figure: string
    readonly reconciliation: ReconciliationSummary
  }
  /**
   * USD per session, uncompacted and under the config, with the prompt cache modelled call by call
   * (`cacheRewrites`: what the config's cache re-writes cost); null figures when no price is known.
   */
  readonly cost: SessionCost | null
  readonly replay?: readonly ReplayPoint[]
  /**
   * Removed content the agent used later in the real transcript: `usedLater` groups holding
   * `tokens` tokens; per group `{groupId, laterMessageId, evidence[], callsLater, tokens}`.
   */
  readonly risk: RiskReport
}

export interface ReportDecision {
  readonly kind: Decision['kind']
  readonly strategy: string
  /** Pipeline step index (−1 for the final fallback). */
  readonly step: number
  /** Set on decisions of a later round (the config re-run on its own projection). */
  readonly round?: number
  readonly reason: string
  readonly groupId: string
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly detail: string
  readonly fixed?: string
}

export interface ReportContext {
  /** The transcript's file name (or a label for pasted text). */
  readonly file: string
  readonly config: { readonly name: string; readonly preset?: string }
  readonly replay?: readonly ReplayPoint[]
  /** The session's cost (from a replay); absent when none was computed. */
  readonly cost?: SessionCost
  /** The run's risk (`assessRisk` from `engine/risk`), computed by the caller beside the run. */
  readonly risk: RiskReport
}

/** The report of one compaction run. */
export function buildCompactReport(
  result: CompactionResult,
  context: ReportContext,
): CompactReport {
  return {
    file: context.file,
    format: result.projection.meta.format,
    config: {
      name: context.config.name,
      ...(context.config.preset ? { preset: context.config.preset } : {}),
    },
    cost: context.cost ?? null,
    accounting: {
      figure: describeFigure(result.reconciliation),
      reconciliation: summarizeReconciliation(result.reconciliation),
    },
    tokens: {
      before: result.tokensBefore,
      after: result.tokensAfter,
      saved: result.tokensBefore - result.tokensAfter,
      usable: result.window.usable,
    },
    decisions: result.decisions.map((d) => ({
      kind: d.kind,
      strategy: d.strategy,
      step: d.step,
      ...(d.round !== undefined ? { round: d.round } : {}),
      reason: d.reason,
      groupId: d.groupId,
      tokensBefore: d.tokensBefore,
      tokensAfter: d.tokensAfter,
      detail: detailOf(d),
      ...(d.fixed ? { fixed: d.fixed } : {}),
    })),
    steps: result.steps,
    invariants: {
      ok: result.invariants.ok,
      violations: result.invariants.checks
        .filter((c) => !c.ok)
        .map((c) => ({ id: c.id, detail: c.detail, offenders: c.offenders })),
    },
    ...(context.replay ? { replay: context.replay } : {}),
    risk: context.risk,
  }
}

/** The JSON report file: pretty-printed, newline-terminated. */
export function reportJson(report: CompactReport): string {
  return JSON.stringify(report, null, 2) + '\n'
}

function cell(d: ReportDecision, index: number, column: CsvColumn): string | number {
  switch (column) {
    case 'index':
      return index
    case 'saved':
      return d.tokensBefore - d.tokensAfter
    case 'round':
      return d.round ?? 0
    case 'fixed':
      return d.fixed ?? ''
    case 'kind':
    case 'strategy':
    case 'step':
    case 'groupId':
    case 'reason':
    case 'tokensBefore':
    case 'tokensAfter':
    case 'detail':
      return d[column]
    default: {
      const never: never = column
      return never
    }
  }
}

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
export function csvField(value: string | number): string {
  const s = String(value)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/**
 * One row per decision, a header row first, CRLF line ends (RFC 4180). `columns` chooses and
 * orders the columns (default `DEFAULT_CSV_COLUMNS`); unknown names throw, so a typo is not a
 * silently empty column.
 */
export function decisionsCsv(
  report: Pick<CompactReport, 'decisions'>,
  columns: readonly string[] = DEFAULT_CSV_COLUMNS,
): string {
  const unknown = columns.filter((c) => !isCsvColumn(c))
  if (unknown.length > 0)
    throw new RangeError(
      `unknown CSV column(s) ${unknown.join(', ')}; one of: ${CSV_COLUMNS.join(', ')}`,
    )
  const cols = columns as readonly CsvColumn[]
  const rows = [cols.map(csvField).join(',')]
  report.decisions.forEach((d, i) => rows.push(cols.map((c) => csvField(cell(d, i, c))).join(',')))
  return rows.join('\r\n') + '\r\n'
}
