import { useEffect, type KeyboardEvent } from 'react'
import {
  useLabStore,
  useFind,
  useNavActions,
  useSelectedGroup,
  useVisibleGroupIds,
} from '../../../store/index.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { findMatches, goToMatch } from './find.ts'
import type { GroupRow } from './groupRows.ts'

/**
 * Find (`/` or Ctrl/⌘+F): highlights the rows whose fields contain the text without hiding the
 * others, so a match keeps its context; Enter / Shift+Enter (or n / N outside the field) step
 * through the matches. The filter bar beside it narrows the list instead.
 */
export function FindBar({ rows }: { readonly rows: readonly GroupRow[] }) {
  const lab = useLabStore()
  const { text, matches } = useFind()
  const order = useVisibleGroupIds()
  const selected = useSelectedGroup()
  const { setFindText, setFindMatches } = useNavActions()

  useEffect(() => {
    setFindMatches(findMatches(rows, text, order ?? []))
  }, [rows, text, order, setFindMatches])

  const at = selected === null ? -1 : matches.indexOf(selected)
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    goToMatch(lab.getState(), event.shiftKey ? -1 : 1)
  }
  return (
    <div className="gt-find" data-testid={TID.findBar} role="search" aria-label="Find in the list">
      {/* Text, not search: Chrome clears a search field on Esc, and Esc here only leaves it. */}
      <input
        type="text"
        className="gt-query-input gt-find-input"
        value={text}
        placeholder="Find (/)…"
        aria-label="Find in the list (Enter: next match, Shift+Enter: previous)"
        spellCheck={false}
        autoComplete="off"
        data-testid={TID.findInput}
        onChange={(e) => setFindText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <span
        className="hint gt-find-count num"
        data-testid={TID.findCount}
        data-matches={matches.length}
        data-current={at + 1}
        aria-live="polite"
      >
        {text.trim() === ''
          ? ''
          : matches.length === 0
            ? 'no match'
            : `${at >= 0 ? formatCount(at + 1) : '–'} of ${formatCount(matches.length)}`}
      </span>
      <button
        type="button"
        className="button ghost"
        aria-label="Previous match (Shift+Enter)"
        disabled={matches.length === 0}
        data-testid={TID.findPrev}
        onClick={() => goToMatch(lab.getState(), -1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="button ghost"
        aria-label="Next match (Enter)"
        disabled={matches.length === 0}
        data-testid={TID.findNext}
        onClick={() => goToMatch(lab.getState(), 1)}
      >
        ↓
      </button>
    </div>
  )
}
