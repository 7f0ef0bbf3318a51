/**
 * Array helpers that never spread an array into call arguments. `target.push(...items)`,
 * `Math.max(...values)` and friends pass every element as an argument, and engines cap the
 * argument count by stack size: past roughly 120k elements they throw `RangeError: Maximum call
 * stack size exceeded`. Decisions, parts and lines are unbounded, so the lint config forbids the
 * spread form (see `eslint.config.js`) and code uses these loops instead.
 */

/** Append every item to `target` (in order) and return `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item)
  return target
}

/** `Math.max` over any number of values: `-Infinity` when empty, `NaN` if any value is. */
export function maxOf(values: Iterable<number>): number {
  let max = -Infinity
  for (const v of values) max = Math.max(max, v)
  return max
}

/** `Math.min` over any number of values: `Infinity` when empty, `NaN` if any value is. */
export function minOf(values: Iterable<number>): number {
  let min = Infinity
  for (const v of values) min = Math.min(min, v)
  return min
}

/** Are the two lists the same items in order (the same array, or items `===` one by one)? */
export function sameItems<T>(a: readonly T[] | undefined, b: readonly T[]): boolean {
  if (a === b) return true
  if (!a || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
