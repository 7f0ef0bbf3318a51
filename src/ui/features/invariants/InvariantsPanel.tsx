/** Invariant warnings with next/previous navigation to the offending rows. (Placeholder mount point: being built.) */
export function InvariantsPanel() {
  return null
}
