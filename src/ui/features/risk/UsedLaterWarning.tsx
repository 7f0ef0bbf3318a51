import type { RiskItem } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { callsLaterWords, listWords } from './riskWords.ts'
import './risk.css'

/**
 * The Why tab's warning for a group the run removed although the agent used its content later
 * ("the agent later used `parse_config` and `line 212` from this result, 3 calls later").
 * Evidence is transcript text: rendered as text in <code>, never as HTML.
 */
export function UsedLaterWarning(props: {
  readonly item: RiskItem
  /** The group holds a tool result (say "this result" rather than "this group"). */
  readonly isToolResult: boolean
}) {
  const { item, isToolResult } = props
  const words = listWords(item.evidence)
  return (
    <div
      className="risk-warning"
      role="note"
      data-testid={TID.detailUsedLater}
      data-later={item.laterMessageId}
      data-calls={item.callsLater}
      data-tokens={item.tokens}
    >
      <strong>Used later.</strong> The agent later used{' '}
      {words.map((w, i) =>
        i % 2 === 0 ? (
          <code key={i} data-testid={TID.detailUsedLaterEvidence}>
            {w}
          </code>
        ) : (
          <span key={i}>{w}</span>
        ),
      )}{' '}
      from this {isToolResult ? 'result' : 'group'}, {callsLaterWords(item.callsLater)} (message{' '}
      <code>{item.laterMessageId}</code>) — none of it is in what this config keeps before then.{' '}
      <span className="hint">{formatCount(item.tokens)} tokens removed here.</span>
    </div>
  )
}
