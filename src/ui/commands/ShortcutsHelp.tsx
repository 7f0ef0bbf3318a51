import { TID } from '../testids.ts'
import { KeyLabels } from './KeyLabels.tsx'
import { Modal } from './Modal.tsx'
import { COMMAND_GROUPS, COMMANDS } from './registry.ts'

/** The `?` sheet: every command of the registry with its keys, by group. */
export function ShortcutsHelp({
  onClose,
  mac,
}: {
  readonly onClose: () => void
  readonly mac: boolean
}) {
  return (
    <Modal
      title="Keyboard shortcuts"
      onClose={onClose}
      testId={TID.shortcutsHelp}
      className="cmd-help"
    >
      <header className="modal-head">
        <h2 className="modal-title">Keyboard shortcuts</h2>
        <button type="button" className="button ghost" onClick={onClose} autoFocus>
          Close
        </button>
      </header>
      <p className="hint cmd-help-note">
        Shortcuts are off while you type in a field; <kbd>Esc</kbd> leaves the field.
      </p>
      <div className="cmd-help-groups">
        {COMMAND_GROUPS.map((group) => {
          const commands = COMMANDS.filter((c) => c.group === group)
          if (commands.length === 0) return null
          return (
            <table key={group} className="table cmd-help-table">
              <caption>{group}</caption>
              <tbody>
                {commands.map((c) => (
                  <tr key={c.id} data-testid={TID.shortcutRow} data-command={c.id}>
                    <td>{c.title}</td>
                    <td className="cmd-help-keys">
                      <KeyLabels keys={c.keys} mac={mac} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        })}
      </div>
    </Modal>
  )
}
