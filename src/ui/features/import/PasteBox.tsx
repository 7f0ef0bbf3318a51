import type { KeyboardEvent } from 'react'
import { useDraft, useStatus, useTranscriptActions } from '../../../store/index.ts'
import { TID } from '../../testids.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const MOD_KEY = isMac ? '⌘' : 'Ctrl'

/** The textarea keeps its text whatever happens to the load, so an error never loses a paste. */
export function PasteBox() {
  const draft = useDraft()
  const status = useStatus()
  const { setDraft, loadDraft } = useTranscriptActions()
  const empty = draft.trim() === ''

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      void loadDraft()
    }
  }

  return (
    <div className="paste">
      <label className="field-label" htmlFor="paste-box">
        Paste a transcript
      </label>
      <textarea
        id="paste-box"
        className="paste-box"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Paste a request body, a session JSONL or a chat log…"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        wrap="off"
        data-testid={TID.pasteBox}
      />
      <div className="paste-actions">
        <button
          type="button"
          className="button primary"
          onClick={() => void loadDraft()}
          disabled={empty}
          aria-busy={status === 'loading'}
          data-testid={TID.loadButton}
        >
          Load
        </button>
        <span className="hint">
          <kbd>{MOD_KEY}</kbd>+<kbd>Enter</kbd> loads the pasted text
        </span>
        {draft ? (
          <span className="hint right">{draft.length.toLocaleString('en-US')} chars</span>
        ) : null}
      </div>
    </div>
  )
}
