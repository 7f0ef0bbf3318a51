/** The config editor: forms per strategy, pipeline order, triggers, JSON view. (Placeholder mount point: being built.) */
export function ConfigEditor() {
  return null
}
