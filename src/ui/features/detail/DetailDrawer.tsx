/** The detail drawer for the selected group (Pretty, Raw, Diff, Why, Tokens). (Placeholder mount point: being built.) */
export function DetailDrawer() {
  return null
}
