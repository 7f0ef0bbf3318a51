import { useEffect, useMemo } from 'react'
import { useLabStore } from '../../store/index.ts'
import { CommandPalette } from './CommandPalette.tsx'
import { KeyDispatcher } from './keys.ts'
import { setOverlay, useOverlay } from './overlays.ts'
import { commandById, COMMANDS, isEnabled, type Command, type CommandUi } from './registry.ts'
import { ShortcutsHelp } from './ShortcutsHelp.tsx'
import { isTypingTarget, modalOpen, targetOwnsKey } from './targets.ts'
import './commands.css'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

function focusTestId(testId: string): boolean {
  const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)
  if (!el) return false
  el.focus()
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.select()
  return true
}

/**
 * The one window keydown listener of the app, plus the palette and the `?` help: all three read
 * the command registry. Plain keys never fire while the user types in a field; Esc leaves it.
 */
export function CommandLayer() {
  const lab = useLabStore()
  const overlay = useOverlay()
  const dispatcher = useMemo(() => new KeyDispatcher(COMMANDS, isMac), [])
  const ui = useMemo<CommandUi>(
    () => ({
      openPalette: () => setOverlay('palette'),
      openHelp: () => setOverlay('help'),
      focus: focusTestId,
    }),
    [],
  )

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A control already handled it (a splitter's arrows, a field's Enter), or an IME is composing.
      if (event.defaultPrevented || event.isComposing) return
      // A modal owns the keyboard (its own Esc closes it).
      if (modalOpen()) return dispatcher.reset()
      const typing = isTypingTarget(event.target)
      if (typing && event.key === 'Escape') {
        if (event.target instanceof HTMLElement) event.target.blur()
        return dispatcher.reset()
      }
      if (targetOwnsKey(event.target, event.key)) return dispatcher.reset()
      const state = lab.getState()
      const result = dispatcher.handle(event, event.timeStamp, (id) => {
        const command = commandById(id)
        return (
          command !== undefined &&
          (!typing || command.inFields === true) &&
          isEnabled(command, state)
        )
      })
      if (result.kind === 'none') return
      event.preventDefault()
      if (result.kind === 'run') commandById(result.id)?.run({ state, ui })
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [dispatcher, ui, lab])

  const close = () => setOverlay('none')
  const runFromPalette = (command: Command) => {
    close()
    // After the palette is gone and focus is back, so a command that moves focus keeps it.
    setTimeout(() => command.run({ state: lab.getState(), ui }), 0)
  }

  if (overlay === 'palette') {
    return <CommandPalette onClose={close} onRun={runFromPalette} mac={isMac} />
  }
  if (overlay === 'help') return <ShortcutsHelp onClose={close} mac={isMac} />
  return null
}
