/** Two configs side by side with the groups whose decisions differ. (Placeholder mount point: being built.) */
export function ComparePanel() {
  return null
}
