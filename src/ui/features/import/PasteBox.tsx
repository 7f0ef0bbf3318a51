import type { ClipboardEvent, KeyboardEvent } from 'react'
import {
  LARGE_PASTE_CHARS,
  useDraft,
  usePastedChars,
  useStatus,
  useTranscriptActions,
} from '../../../store/index.ts'
import { TID } from '../../testids.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const MOD_KEY = isMac ? '⌘' : 'Ctrl'

/** The textarea keeps its text whatever happens to the load, so an error never loses a paste. */
export function PasteBox() {
  const draft = useDraft()
  const pasted = usePastedChars()
  const status = useStatus()
  const { setDraft, loadDraft, loadPasted } = useTranscriptActions()
  const empty = draft.trim() === ''

  // A large paste never enters the textarea: laying out a megabyte of text (and re-rendering it
  // on every keystroke) blocks the page for seconds. Its bytes go to the worker at once.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const text = event.clipboardData.getData('text/plain')
    if (text.length < LARGE_PASTE_CHARS) return
    event.preventDefault()
    // The paste event's own task already read a megabyte off the clipboard; encoding it and the
    // re-render that follows run in a task of their own so neither lengthens that one.
    setTimeout(() => void loadPasted(text), 0)
  }

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
        onPaste={onPaste}
        placeholder={
          pasted === null
            ? 'Paste a request body, a session JSONL or a chat log…'
            : `Pasted ${pasted.toLocaleString('en-US')} characters: loaded without showing them here. Paste again to replace.`
        }
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
