import { useProgress } from '../../store/index.ts'
import type { LoadPhase } from '../../store/index.ts'
import { TID } from '../testids.ts'

const PHASE_LABELS: Record<LoadPhase, string> = {
  parse: 'Parsing',
  estimate: 'Estimating tokens',
  tokenizer: 'Loading tokenizer',
  count: 'Counting tokens',
  done: 'Done',
}

/** A thin bar under the header; it keeps its height when idle so the page never jumps. */
export function ProgressBar() {
  const progress = useProgress()
  if (!progress) return <div className="progress idle" aria-hidden="true" />
  const fraction = progress.total > 0 ? progress.done / progress.total : 0
  // Never draw an empty bar: some work is always under way when the bar is shown.
  const width = Math.max(0.06, Math.min(1, fraction))
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={PHASE_LABELS[progress.phase]}
      aria-valuemin={0}
      aria-valuemax={progress.total}
      aria-valuenow={progress.done}
      data-testid={TID.progress}
      data-phase={progress.phase}
    >
      <div className="progress-fill" style={{ width: `${width * 100}%` }} />
      <span className="progress-label">{PHASE_LABELS[progress.phase]}…</span>
    </div>
  )
}
