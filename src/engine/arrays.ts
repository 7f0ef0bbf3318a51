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

/**
 * `items.map(fn)` that always makes a packed array. V8's `Array.prototype.map` returns a packed
 * array when its caller runs in the interpreter but a holey one (`new Array(n)` filled in) when
 * TurboFan has inlined it into an optimised caller, so the same field (a message's `parts`, a
 * price list, the pairing's calls) held arrays of two hidden classes depending on when in a run
 * it was made — and the code reading them was deoptimised ('wrong map') when the second turned
 * up. Pushing into `[]` gives the packed kind either way. Use it for arrays that are kept in the
 * model and read by hot code; a temporary array gains nothing.
 */
export function mapItems<T, U>(items: readonly T[], fn: (item: T, index: number) => U): U[] {
  const out: U[] = []
  for (let i = 0; i < items.length; i++) out.push(fn(items[i] as T, i))
  return out
}

/**
 * The first index in `sorted[0..end)` (ascending) whose value is at least `value`, or `end` when
 * none is: a binary search (the prune frontier's running sums, sorted index lists).
 */
export function firstAtLeast(
  sorted: ArrayLike<number>,
  value: number,
  end = sorted.length,
): number {
  let lo = 0
  let hi = end
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
