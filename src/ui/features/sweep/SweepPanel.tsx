/** Sweep one numeric parameter over a range. (Placeholder mount point: being built.) */
export function SweepPanel() {
  return null
}
