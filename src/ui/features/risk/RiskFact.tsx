import type { RiskFigures } from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { usedLaterWords } from './riskWords.ts'
import './risk.css'

/**
 * The removed-then-used figure of a run (Compaction facts, compare sides): how many removed
 * groups the agent used later in the real transcript, and the tokens they held.
 */
export function RiskFact(props: { readonly risk: RiskFigures; readonly testId?: string }) {
  const { risk, testId = TID.riskUsedLater } = props
  return (
    <span
      className={risk.usedLater > 0 ? 'risk-fact pill medium' : 'risk-fact hint'}
      data-testid={testId}
      data-value={risk.usedLater}
      data-tokens={risk.tokens}
      title="Groups this config removes whose distinctive strings (paths, identifiers, numbers, error lines) the agent used after the removal point, while the kept context did not hold them"
    >
      {usedLaterWords(risk.usedLater)}
      {risk.usedLater > 0 ? ` (${formatCount(risk.tokens)} tokens)` : ''}
    </span>
  )
}
