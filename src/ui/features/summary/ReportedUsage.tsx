import type { InspectReport } from '../../../store/index.ts'
import { useDeferredRunSummary } from '../../../store/index.ts'
import { formatCount, formatShare, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/**
 * What the transcript itself reported at its last model call, beside the reconstructed context of
 * that call (the run's reconciled figure, never our raw count of the whole file: that holds
 * history an upstream compaction dropped, other agents' threads and the hidden prefix is not in it).
 */
export function ReportedUsage({ report }: { readonly report: InspectReport }) {
  const summary = useDeferredRunSummary()
  const { reported } = report
  if (!reported) return null
  const last = summary?.accounting.reconciliation.lastCall ?? null
  const diff = last ? last.estimate - reported.contextTokens : null
  return (
    <div className="reported" data-testid={TID.reportedUsage}>
      <div>
        <span className="field-label">Reported by the transcript</span>{' '}
        <b>{formatCount(reported.contextTokens)}</b> context tokens at the last model call{' '}
        <span className="hint">
          ({reported.source}; {formatCount(reported.points)} calls carry usage; message{' '}
          <code>{reported.messageId}</code>)
        </span>
      </div>
      {last && diff !== null ? (
        <div>
          <span className="field-label">Reconstructed</span> {formatCount(last.estimate)} (
          {summary?.accounting.reconciliation.source}) − reported = <b>{formatSigned(diff)}</b>{' '}
          <span className="hint">
            ({diff >= 0 ? '+' : ''}
            {formatShare(diff, reported.contextTokens)}; see Accounting)
          </span>
        </div>
      ) : (
        <div className="hint">The reconstructed figure of that call comes with the first run.</div>
      )}
    </div>
  )
}
