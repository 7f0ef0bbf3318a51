import { useReport, useSource } from '../../../store/index.ts'
import { formatMs } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

const ORIGIN_LABELS = { sample: 'built-in sample', paste: 'pasted text', file: 'file' } as const

/** What is loaded and how long each phase took; extra picked files are listed, not loaded. */
export function SourceLine() {
  const { fileName, origin, otherFiles, status } = useSource()
  const { timings } = useReport()
  if (!origin) return null
  const name = fileName ?? 'pasted text'
  return (
    <div className="source" data-testid={TID.sourceLine} data-origin={origin}>
      <div>
        <span className="source-name">{name}</span>
        {origin !== 'paste' ? <span className="source-origin">{ORIGIN_LABELS[origin]}</span> : null}
        {status === 'loaded' && timings.loadMs !== null ? (
          <span className="source-time">
            parsed in {formatMs(timings.loadMs)}
            {timings.countMs !== null ? ` · counted in ${formatMs(timings.countMs)}` : ''}
          </span>
        ) : null}
      </div>
      {otherFiles.length > 0 ? (
        <div className="source-others" data-testid={TID.otherFiles}>
          Loaded the first file only; also selected ({otherFiles.length}): {otherFiles.join(', ')}.
          Loading several files together comes in a later version.
        </div>
      ) : null}
    </div>
  )
}
