import { useRef, useState } from 'react'
import {
  DEFAULT_CSV_COLUMNS,
  useExportSource,
  useRunSummary,
  type CsvColumn,
} from '../../../store/index.ts'
import { Modal } from '../../commands/Modal.tsx'
import { TID } from '../../testids.ts'
import { CodePreview } from './CodePreview.tsx'
import { CsvColumnPicker } from './CsvColumnPicker.tsx'
import { CONFIG_CHOICES, RUN_CHOICES, choiceById, type ExportChoice } from './exportChoices.ts'
import { ExportFindings } from './ExportFindings.tsx'
import { copyText, downloadText } from './transfer.ts'
import { useInitialFocus } from './useInitialFocus.ts'
import { useExportFile, type ExportFileState } from './useExportFile.ts'

/** The last choice and CSV columns, so reopening the dialog comes back to the same file. */
let lastChoice: ExportChoice = CONFIG_CHOICES[0] as ExportChoice
let lastColumns: readonly CsvColumn[] = DEFAULT_CSV_COLUMNS

type CopyStatus = 'idle' | 'copied' | 'failed'

function Problem({ state }: { readonly state: Extract<ExportFileState, { kind: 'error' }> }) {
  return (
    <div className="alert" role="alert" data-testid={TID.exportError}>
      <span className="alert-title">{state.message}</span>
      {state.issues.length > 0 ? (
        <ul className="xp-list">
          {state.issues.map((issue, i) => (
            <li key={i}>
              <code className="xp-path">{issue.path}</code> {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/**
 * Export (SPEC §7): our config, its translation for one of the seven target systems, or the
 * latest run's compacted transcript and reports — previewed, with what the target cannot carry
 * over listed beside it, then copied or downloaded.
 */
export function ExportDialog({ onClose }: { readonly onClose: () => void }) {
  const [choice, setChoice] = useState<ExportChoice>(lastChoice)
  const [columns, setColumns] = useState<readonly CsvColumn[]>(lastColumns)
  const [copy, setCopy] = useState<{ status: CopyStatus; of: unknown }>({
    status: 'idle',
    of: null,
  })
  const first = useRef<HTMLSelectElement>(null)
  useInitialFocus(first)
  const source = useExportSource()
  const summary = useRunSummary()
  const usable = choice.kind === 'config' || source.hasRun
  const current = usable ? choice : (CONFIG_CHOICES[0] as ExportChoice)
  const revision =
    current.kind === 'config' ? (source.customConfig ?? source.selectedPreset) : summary
  const state = useExportFile(current, revision, columns)
  const file = state.kind === 'ready' ? state.file : null
  const copyStatus = copy.of === file ? copy.status : 'idle'

  const pick = (id: string) => {
    const next = choiceById(id)
    if (!next) return
    lastChoice = next
    setChoice(next)
  }
  const pickColumns = (next: readonly CsvColumn[]) => {
    lastColumns = next
    setColumns(next)
  }
  const onCopy = async () => {
    if (!file) return
    setCopy({ status: (await copyText(file.text)) ? 'copied' : 'failed', of: file })
  }

  return (
    <Modal title="Export" onClose={onClose} testId={TID.exportDialog} className="xp-dialog">
      <header className="modal-head">
        <h2 className="modal-title">Export</h2>
        <button
          type="button"
          className="button ghost"
          onClick={onClose}
          data-testid={TID.exportClose}
        >
          Close
        </button>
      </header>
      <div className="xp-body">
        <div className="xp-toolbar">
          <label className="xp-field">
            <span>What to export</span>
            <select
              className="select"
              value={current.id}
              onChange={(e) => pick(e.target.value)}
              data-testid={TID.exportTarget}
              ref={first}
            >
              <optgroup label="Config">
                {CONFIG_CHOICES.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </optgroup>
              <optgroup label={source.hasRun ? 'Latest run' : 'Latest run (nothing ran yet)'}>
                {RUN_CHOICES.map((c) => (
                  <option key={c.id} value={c.id} disabled={!source.hasRun}>
                    {c.label}
                  </option>
                ))}
              </optgroup>
            </select>
          </label>
          <div className="xp-actions">
            <button
              type="button"
              className="button"
              disabled={!file}
              onClick={() => void onCopy()}
              data-testid={TID.exportCopy}
            >
              Copy
            </button>
            <button
              type="button"
              className="button primary"
              disabled={!file}
              onClick={() => file && downloadText(file.fileName, file.text, file.mediaType)}
              data-testid={TID.exportDownload}
            >
              Download {file ? file.fileName : ''}
            </button>
            <span
              className="hint xp-status"
              role="status"
              data-testid={TID.exportStatus}
              data-status={copyStatus}
            >
              {copyStatus === 'copied'
                ? 'Copied.'
                : copyStatus === 'failed'
                  ? 'Could not copy: select the text and copy it.'
                  : ''}
            </span>
          </div>
        </div>
        {current.kind === 'config' && source.selectedPreset && source.customConfig === null ? (
          <p className="hint">From the preset “{source.selectedPreset}”, as it is.</p>
        ) : current.kind === 'config' ? (
          <p className="hint">From your edited config (started from “{source.selectedPreset}”).</p>
        ) : null}
        {current.id === 'report-csv' ? (
          <CsvColumnPicker value={columns} onChange={pickColumns} />
        ) : null}
        {file?.summary ? (
          <p className="xp-summary" data-testid={TID.exportSummary}>
            {file.summary}
          </p>
        ) : null}
        {state.kind === 'error' ? <Problem state={state} /> : null}
        <div className="xp-main">
          <CodePreview
            text={file?.text ?? ''}
            language={file?.language ?? 'json'}
            fileName={file?.fileName ?? ''}
            choice={current.id}
            state={state.kind}
          />
          {file ? (
            <ExportFindings
              warnings={file.warnings}
              notes={file.notes}
              translation={current.kind === 'config' && current.id !== 'compaction-lab'}
            />
          ) : null}
        </div>
      </div>
    </Modal>
  )
}
