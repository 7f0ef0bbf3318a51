import { useMemo, useState, type KeyboardEvent } from 'react'
import { useLabStore } from '../../store/index.ts'
import { TID } from '../testids.ts'
import { KeyLabels } from './KeyLabels.tsx'
import { Modal } from './Modal.tsx'
import { COMMANDS, isEnabled, type Command } from './registry.ts'

/** Every word of the filter must occur in the title, group or id (any order, any case). */
function matches(command: Command, words: readonly string[]): boolean {
  const text = `${command.title} ${command.group} ${command.id}`.toLowerCase()
  return words.every((w) => text.includes(w))
}

interface PaletteProps {
  readonly onClose: () => void
  /** Close the palette, then run the command (after focus went back where it was). */
  readonly onRun: (command: Command) => void
  readonly mac: boolean
}

/** Ctrl/⌘+K: type to filter the registry, arrows to choose, Enter to run, Esc to close. */
export function CommandPalette({ onClose, onRun, mac }: PaletteProps) {
  const lab = useLabStore()
  const [filter, setFilter] = useState('')
  const [active, setActive] = useState(0)
  // A snapshot is enough: the page behind a modal cannot change what is enabled meanwhile.
  const [state] = useState(() => lab.getState())
  const list = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
    return COMMANDS.filter((c) => c.id !== 'help.palette' && matches(c, words))
  }, [filter])
  const current = Math.min(active, Math.max(0, list.length - 1))

  const run = (command: Command | undefined) => {
    if (command && isEnabled(command, state)) onRun(command)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (move !== 0 && list.length > 0) {
      event.preventDefault()
      setActive((current + move + list.length) % list.length)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      run(list[current])
    }
  }
  const optionId = (c: Command) => `palette-${c.id}`
  return (
    <Modal
      title="Command palette"
      onClose={onClose}
      testId={TID.commandPalette}
      className="cmd-palette"
    >
      <input
        className="cmd-palette-input"
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={list[current] ? optionId(list[current]) : undefined}
        aria-label="Type a command"
        placeholder="Type a command…"
        value={filter}
        onChange={(event) => {
          setFilter(event.target.value)
          setActive(0)
        }}
        onKeyDown={onKeyDown}
        autoFocus
        spellCheck={false}
        autoComplete="off"
        data-testid={TID.paletteInput}
      />
      <ul id="palette-list" className="cmd-palette-list" role="listbox" aria-label="Commands">
        {list.map((c, i) => {
          const enabled = isEnabled(c, state)
          return (
            <li
              key={c.id}
              id={optionId(c)}
              role="option"
              aria-selected={i === current}
              aria-disabled={!enabled}
              className="cmd-palette-item"
              data-testid={TID.paletteItem}
              data-command={c.id}
              data-enabled={enabled}
              onMouseMove={() => setActive(i)}
              onClick={() => run(c)}
            >
              <span className="cmd-group">{c.group}</span>
              <span className="cmd-title">{c.title}</span>
              <KeyLabels keys={c.keys} mac={mac} />
            </li>
          )
        })}
        {list.length === 0 ? <li className="hint cmd-palette-empty">No command matches.</li> : null}
      </ul>
    </Modal>
  )
}
