import { useId, useMemo, useState, type KeyboardEvent } from 'react'
import { useFileItems, useOpenItem } from '../../../store/index.ts'
import type { FileItem } from '../../../worker/protocol.ts'
import { formatCount } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import './items.css'

/** At most this many matches are drawn: a search narrows a 10,000-trajectory file. */
const MAX_SHOWN = 200

function matches(item: FileItem, query: string): boolean {
  if (query === '') return true
  const q = query.toLowerCase()
  return item.name.toLowerCase().includes(q) || String(item.index) === q.replace(/^#/, '')
}

/**
 * The conversations of a file that holds several (tau-bench trajectories, aider sessions,
 * Claude Code sub-agent runs, captures of several conversations): name, messages and tokens per
 * item, filtered as you type; arrows move, Enter or a click opens one.
 */
export function ItemPicker() {
  const { items, item, status } = useFileItems()
  const openItem = useOpenItem()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const listId = useId()
  const shown = useMemo(
    () => (items ? items.items.filter((i) => matches(i, query.trim())) : []),
    [items, query],
  )
  if (!items) return null
  const visible = shown.slice(0, MAX_SHOWN)
  const at = Math.min(active, Math.max(visible.length - 1, 0))
  const busy = status === 'loading'
  const open = (index: number) => {
    if (!busy && index !== item) void openItem(index)
  }
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive(Math.min(Math.max(at + step, 0), Math.max(visible.length - 1, 0)))
    } else if (event.key === 'Enter') {
      const chosen = visible[at]
      if (chosen) open(chosen.index)
    }
  }
  const optionId = (index: number) => `${listId}-${index}`
  return (
    <div className="item-picker" data-testid={TID.itemPicker} data-kind={items.kind}>
      <div className="item-picker-head">
        <span className="hint">
          This file holds {items.label};{' '}
          {item === null ? 'the default one is loaded' : `item ${item} is loaded`}.
        </span>
        <input
          type="search"
          className="item-search"
          placeholder="Search items (name or number)…"
          aria-label="Search the file's conversations"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={visible[at] ? optionId(visible[at].index) : undefined}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
          }}
          onKeyDown={onKey}
          data-testid={TID.itemSearch}
        />
      </div>
      <ul className="item-list" role="listbox" id={listId} aria-label="Conversations in the file">
        {visible.map((it, k) => (
          <li
            key={it.index}
            id={optionId(it.index)}
            role="option"
            aria-selected={it.index === item}
            className={['item-option', k === at ? 'active' : ''].filter(Boolean).join(' ')}
            data-testid={TID.itemOption}
            data-index={it.index}
            onClick={() => open(it.index)}
            onMouseEnter={() => setActive(k)}
          >
            <span className="item-index num">{it.index}</span>
            <span className="item-name" title={it.name}>
              {it.name}
            </span>
            <span className="item-size num">
              {formatCount(it.messages)} msg
              {it.tokens !== undefined ? ` · ${formatCount(it.tokens)} tok` : ''}
            </span>
          </li>
        ))}
      </ul>
      {shown.length > visible.length ? (
        <p className="hint">
          {formatCount(shown.length - visible.length)} more: refine the search to see them.
        </p>
      ) : null}
      {shown.length === 0 ? <p className="hint">No item matches “{query}”.</p> : null}
    </div>
  )
}
