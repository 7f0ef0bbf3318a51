/** Moving focus between the workbench's panes (plain DOM, used by commands and panes). */
import { TID } from '../testids.ts'

const byTestId = (testId: string) =>
  document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)

/** Focus the group list's scroll area (where j/k, arrows and Enter act), else the list slot. */
export function focusList(): boolean {
  const el =
    document.querySelector<HTMLElement>('#group-list .gt-scroll') ??
    document.getElementById('group-list')
  if (!el) return false
  el.focus({ preventScroll: true })
  return true
}

/** Focus the detail pane's drawer (its tabs and text are then one Tab away). */
export function focusDetail(): boolean {
  const el = byTestId(TID.detailDrawer)
  if (!el) return false
  el.focus()
  return true
}

const FOCUSABLE =
  'input:not([type="hidden"]):not(:disabled),select:not(:disabled),textarea:not(:disabled),button:not(:disabled),[tabindex]:not([tabindex="-1"])'

/** Focus the first control inside the element with this test id. */
export function focusFirstIn(testId: string): boolean {
  const el = byTestId(testId)?.querySelector<HTMLElement>(FOCUSABLE)
  if (!el) return false
  el.focus()
  return true
}

/** Click the element with this test id (the hidden file input: opens the OS file chooser). */
export function clickTestId(testId: string): boolean {
  const el = byTestId(testId)
  if (!el) return false
  el.click()
  return true
}
