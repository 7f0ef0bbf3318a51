/**
 * Deterministic slices of a file list (`evaluate --shard i/n`): the paths are sorted (code-unit
 * order, independent of locale) and the k-th goes to shard k mod n, so every machine given the
 * same list computes the same slices, each path lands in exactly one, and sizes differ by ≤ 1.
 */
export function shard<T extends string>(paths: readonly T[], index: number, count: number): T[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`shard count ${count} < 1`)
  if (!Number.isInteger(index) || index < 1 || index > count)
    throw new RangeError(`shard ${index} is not within 1…${count}`)
  const sorted = [...new Set(paths)].sort(compareNames)
  return sorted.filter((_, k) => k % count === index - 1)
}

/** `i/n` → {index, count}; null when malformed or out of range. */
export function parseShard(text: string): { index: number; count: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  if (!m) return null
  const index = Number(m[1])
  const count = Number(m[2])
  if (count < 1 || index < 1 || index > count) return null
  return { index, count }
}

/** Code-unit order: the same on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
