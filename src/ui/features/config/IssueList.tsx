import type { ConfigIssue } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

/** Every problem the worker found, at the top of the editor (each is also shown at its field). */
export function IssueList({ issues }: { readonly issues: readonly ConfigIssue[] }) {
  if (issues.length === 0) return null
  return (
    <div className="alert" data-testid={TID.configIssues} data-count={issues.length}>
      <span className="alert-title">
        {issues.length === 1 ? 'One problem' : `${issues.length} problems`} in the config — nothing
        ran; the last valid result stays on screen.
      </span>
      <ul className="problems">
        {issues.map((issue, i) => (
          <li key={i}>
            <code>{issue.path || '(root)'}</code> {issue.message}
          </li>
        ))}
      </ul>
    </div>
  )
}
