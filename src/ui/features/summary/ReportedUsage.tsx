import type { InspectReport } from '../../../store/index.ts'
import { formatCount, formatShare, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/**
 * What the transcript itself reported (usage fields) beside our count, with the difference:
 * the two are labelled apart because they measure different things with different tokenizers.
 */
export function ReportedUsage({ report }: { readonly report: InspectReport }) {
  const { reported, tokens } = report
  if (!reported) return null
  const diff = tokens.total - reported.contextTokens
  const counted = tokens.tokenizer === 'estimate' ? 'estimated' : 'counted'
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
      <div>
        <span className="field-label">Difference</span> {counted} ({tokens.tokenizer}) − reported ={' '}
        <b>{formatSigned(diff)}</b>{' '}
        <span className="hint">
          ({diff >= 0 ? '+' : ''}
          {formatShare(diff, reported.contextTokens)})
        </span>
      </div>
    </div>
  )
}
