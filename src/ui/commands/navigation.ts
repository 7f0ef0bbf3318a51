/** Moving the selection through the table's rows as displayed (pure, tested in Node). */

/**
 * The row `delta` steps from `current` (clamped at the ends). With no selection, or one the
 * rows no longer show, down starts at the first row and up at the last.
 */
export function stepRow(
  ids: readonly string[],
  current: string | null,
  delta: number,
): string | null {
  if (ids.length === 0) return null
  const at = current === null ? -1 : ids.indexOf(current)
  if (at < 0) return (delta >= 0 ? ids[0] : ids.at(-1)) ?? null
  return ids[Math.min(ids.length - 1, Math.max(0, at + delta))] ?? null
}

export function edgeRow(ids: readonly string[], edge: 'first' | 'last'): string | null {
  return (edge === 'first' ? ids[0] : ids.at(-1)) ?? null
}

/** The next/previous item of a list, wrapping around (presets). */
export function cycle<T>(list: readonly T[], current: T, delta: number): T {
  const at = list.indexOf(current)
  const next = (((at < 0 ? 0 : at + delta) % list.length) + list.length) % list.length
  return list[next] ?? current
}
