import {
  useRunProblems,
  useRunProgress,
  useRunStatus,
  useRunSummary,
  useSelectedPreset,
} from '../../../store/index.ts'
import { formatMs } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

/** Where the run is: running (with the app's progress style), done in N ms, or what went wrong. */
export function RunStatusLine() {
  const status = useRunStatus()
  const preset = useSelectedPreset()
  const summary = useRunSummary()
  const progress = useRunProgress()
  const { configIssues, runError } = useRunProblems()
  const fraction = progress && progress.total > 0 ? progress.done / progress.total : 0
  return (
    <div className="run-status" data-testid={TID.runStatus} data-status={status}>
      {status === 'running' ? (
        <>
          <div
            className="progress run-progress"
            role="progressbar"
            aria-label={`Running ${preset}`}
            aria-valuemin={0}
            aria-valuemax={1}
            aria-valuenow={fraction}
          >
            <div
              className="progress-fill"
              style={{ width: `${Math.max(0.06, Math.min(1, fraction)) * 100}%` }}
            />
          </div>
          <span className="hint">running {preset}…</span>
        </>
      ) : null}
      {status === 'done' && summary ? (
        <span className="hint">
          ran <b>{summary.configName}</b> in {formatMs(summary.ms)}
        </span>
      ) : null}
      {status === 'idle' ? <span className="hint">waiting for the exact token count…</span> : null}
      {status === 'error' ? (
        <div className="alert" role="alert">
          <span className="alert-title">{runError ?? 'The run failed.'}</span>
          {configIssues.length > 0 ? (
            <ul className="problems">
              {configIssues.map((issue, i) => (
                <li key={i}>
                  <code>{issue.path || '(root)'}</code> {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
