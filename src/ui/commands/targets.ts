/** Where a key press landed, so global shortcuts never steal keys a control needs. */

const NON_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
])

/** A field that takes typed characters: every plain key belongs to it. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type)
}

/** Widgets whose own keyboard model uses arrows, Home and End (ARIA patterns). */
const ARROW_ROLES =
  '[role="slider"],[role="separator"],[role="tab"],[role="tablist"],[role="listbox"],' +
  '[role="option"],[role="menu"],[role="menuitem"],[role="radiogroup"],[role="radio"],' +
  '[role="spinbutton"],[role="tree"],[role="treeitem"],[role="grid"],input[type="range"],svg'

/** Elements that Enter (or Space) activates. */
const ACTIVATABLE =
  'button,a[href],summary,input,select,textarea,[role="button"],[role="link"],[role="tab"],' +
  '[role="checkbox"],[role="switch"],[role="menuitem"],[role="option"],[role="treeitem"]'

const ARROW_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'])

/** True when the focused element handles this key itself and the shortcut must stand aside. */
export function targetOwnsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false
  if (ARROW_KEYS.has(key)) return target.closest(ARROW_ROLES) !== null
  if (key === 'Enter' || key === ' ') return target.closest(ACTIVATABLE) !== null
  return false
}

/** Another modal (ours or another feature's) is open: it owns the keyboard. */
export function modalOpen(): boolean {
  return document.querySelector('dialog[open], [aria-modal="true"]') !== null
}
