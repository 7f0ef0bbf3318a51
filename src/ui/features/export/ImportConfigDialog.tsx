import { useRef, useState } from 'react'
import { useEngineRequest, useLabStore } from '../../../store/index.ts'
import { Modal } from '../../commands/Modal.tsx'
import { TID } from '../../testids.ts'
import { useInitialFocus } from './useInitialFocus.ts'

/**
 * Import a config (our versioned JSON, any published version) from a file or pasted text. The
 * worker migrates and validates it; problems are listed with their path, and a valid config
 * replaces the one on screen and runs at once.
 */
export function ImportConfigDialog({ onClose }: { readonly onClose: () => void }) {
  const lab = useLabStore()
  const [text, setText] = useState('')
  // Where the text being checked came from (a file's name, or the paste), for the problem list.
  const [source, setSource] = useState('')
  const first = useRef<HTMLTextAreaElement>(null)
  useInitialFocus(first)
  const { state, send } = useEngineRequest('importConfig')

  const submit = async (body: string, from: string) => {
    setSource(from)
    const settled = await send({ text: body })
    if (settled.status !== 'done') return
    lab.getState().setConfig(settled.reply.config, { immediate: true })
    onClose()
  }

  const onFile = async (files: FileList | null) => {
    const file = files?.[0]
    if (!file) return
    const body = await file.text()
    setText(body)
    await submit(body, file.name)
  }

  return (
    <Modal title="Import config" onClose={onClose} testId={TID.importDialog} className="xp-import">
      <header className="modal-head">
        <h2 className="modal-title">Import config</h2>
        <button
          type="button"
          className="button ghost"
          onClick={onClose}
          data-testid={TID.importClose}
        >
          Close
        </button>
      </header>
      <div className="xp-body">
        <label className="xp-field">
          <span>From a file (Compaction Lab config JSON)</span>
          <input
            type="file"
            accept=".json,application/json"
            data-testid={TID.importFile}
            onChange={(e) => void onFile(e.target.files)}
          />
        </label>
        <label className="xp-field xp-paste">
          <span>Or paste it</span>
          <textarea
            className="xp-textarea"
            value={text}
            spellCheck={false}
            placeholder='{ "version": 1, "window": { … }, "pipeline": [ … ] }'
            onChange={(e) => setText(e.target.value)}
            data-testid={TID.importText}
            ref={first}
          />
        </label>
        <div className="xp-actions">
          <button
            type="button"
            className="button primary"
            disabled={text.trim() === '' || state.status === 'running'}
            onClick={() => void submit(text, 'The pasted text')}
            data-testid={TID.importSubmit}
          >
            {state.status === 'running' ? 'Checking…' : 'Import'}
          </button>
          <span className="hint">
            Replaces the config on screen; Reset to preset brings it back.
          </span>
        </div>
        {state.status === 'error' && state.refused ? (
          <div className="alert" role="alert">
            <span className="alert-title">
              {source} is not a valid config ({state.issues.length}{' '}
              {state.issues.length === 1 ? 'problem' : 'problems'}):
            </span>
            <ul className="xp-list">
              {state.issues.map((issue, i) => (
                <li key={i} data-testid={TID.importIssue} data-path={issue.path}>
                  <code className="xp-path">{issue.path || '(top level)'}</code> {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : state.status === 'error' ? (
          <div className="alert" role="alert">
            <span className="alert-title">Could not import: {state.message}</span>
          </div>
        ) : null}
      </div>
    </Modal>
  )
}
