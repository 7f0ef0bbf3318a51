import { useReport, useSource, useTranscriptActions } from '../../../store/index.ts'
import { formatMs } from '../../lib/format.ts'
import { TID } from '../../testids.ts'

const ORIGIN_LABELS = { sample: 'built-in sample', paste: 'pasted text', file: 'file' } as const

/**
 * The files of the last pick or drop: each is its own context (a subagent runs with its own
 * window), so one is analysed at a time and a click switches to another.
 */
function FileSwitcher(props: {
  readonly names: readonly string[]
  readonly current: string | null
  readonly busy: boolean
}) {
  const { openFile } = useTranscriptActions()
  return (
    <div className="source-others" data-testid={TID.otherFiles}>
      <span className="hint">
        {props.names.length} files — each is analysed on its own (a subagent has its own context):
      </span>
      <div className="source-files" role="group" aria-label="Loaded files">
        {props.names.map((name) => (
          <button
            key={name}
            type="button"
            className={name === props.current ? 'chip active' : 'chip'}
            aria-pressed={name === props.current}
            data-testid={TID.fileChoice}
            data-file={name}
            disabled={props.busy && name !== props.current}
            onClick={() => {
              if (name !== props.current) void openFile(name)
            }}
          >
            {name}
          </button>
        ))}
      </div>
    </div>
  )
}

/** What is loaded and how long each phase took; with several files, a switcher between them. */
export function SourceLine() {
  const { fileName, origin, fileSet, status } = useSource()
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
      {fileSet.length > 1 ? (
        <FileSwitcher
          names={fileSet.map((f) => f.name)}
          current={fileName}
          busy={status === 'loading'}
        />
      ) : null}
    </div>
  )
}
