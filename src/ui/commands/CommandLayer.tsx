/** Keyboard shortcuts, command palette and the ? help, fed by one command registry. (Placeholder mount point: being built.) */
export function CommandLayer() {
  return null
}
