import { useLabStore, useRecentFiles, useStatus } from '../../../store/index.ts'
import { formatBytes, RECENT_LIMITS } from '../../../store/recent-files.ts'
import { TID } from '../../testids.ts'

const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })

/**
 * Transcripts kept on this device (IndexedDB, never uploaded, never in the URL): open one again,
 * or forget it. The bound is said here, and why the last one was not kept when it was not.
 */
export function RecentFiles() {
  const lab = useLabStore()
  const { files, note } = useRecentFiles()
  const status = useStatus()
  return (
    <div className="recent" data-testid={TID.recentFiles}>
      <div className="field-label">Recent on this device</div>
      {files.length > 0 ? (
        <ul className="recent-list">
          {files.map((f) => (
            <li
              key={f.id}
              className="recent-item"
              data-testid={TID.recentFile}
              data-name={f.name}
              data-bytes={f.bytes}
            >
              <button
                type="button"
                className="button ghost recent-open"
                data-testid={TID.recentOpen}
                disabled={status === 'loading'}
                title={`Open ${f.name} again (loaded ${when(f.savedAt)})`}
                onClick={() => void lab.getState().openRecent(f.id)}
              >
                <span className="recent-name">{f.name}</span>
                <span className="hint num">{formatBytes(f.bytes)}</span>
              </button>
              <button
                type="button"
                className="button ghost recent-forget"
                data-testid={TID.recentForget}
                aria-label={`Forget ${f.name} (delete it from this device)`}
                title="Forget: delete it from this device"
                onClick={() => void lab.getState().forgetRecent(f.id)}
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="hint" data-testid={TID.recentNote}>
        {note ? <span className="warn">{note} </span> : null}
        Pasted and picked transcripts are kept in this browser only (IndexedDB, never uploaded) to
        reopen after a reload: the last {RECENT_LIMITS.entries}, up to{' '}
        {formatBytes(RECENT_LIMITS.totalBytes)} in all, none over{' '}
        {formatBytes(RECENT_LIMITS.entryBytes)}.
      </p>
    </div>
  )
}
