/** Index-ordered lists and sets of keys, as the plan index keeps them (see plan-index.ts). */

/** Put `value` into the list at `key`, kept in index order (appending is the usual case). */
export function insert<V>(
  map: Map<string, V[]>,
  key: string,
  value: V,
  index: number,
  indexOf: (v: V) => number,
): void {
  const list = map.get(key)
  if (!list) {
    map.set(key, [value])
    return
  }
  // Appending is the usual case; a redone result goes back deep into a hot file's long list,
  // found by binary search rather than a walk from the end.
  const n = list.length
  if (n === 0 || indexOf(list[n - 1] as V) <= index) list.push(value)
  else list.splice(after(list, index, indexOf), 0, value)
}

/**
 * Take `value` out of the index-ordered list it was put in by {@link insert}: found by binary
 * search (a result redone deep in a hot file's list), else by a plain search as before. A value
 * not there leaves the list as it was (a splice at -1 took the last entry).
 */
export function removeFrom<V>(list: V[], value: V, index: number, indexOf: (v: V) => number): void {
  // Indexes are whole numbers: the first entry above `index - 1` is the first at `index`.
  let at = after(list, index - 1, indexOf)
  while (at < list.length && list[at] !== value && indexOf(list[at] as V) === index) at++
  if (list[at] !== value) at = list.indexOf(value)
  if (at >= 0) list.splice(at, 1)
}
/** Position of the first element of an index-ordered list whose index is above `index`. */
export function after<V>(list: readonly V[], index: number, indexOf: (v: V) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (indexOf(list[mid] as V) > index) hi = mid
    else lo = mid + 1
  }
  return lo
}
/** Add `value` to the set at `key` (made when missing); the set. */
export const addTo = (map: Map<string, Set<string>>, key: string, value: string): Set<string> => {
  let set = map.get(key)
  if (set) set.add(value)
  else map.set(key, (set = new Set([value])))
  return set
}

/** An occurrence's index, and an index itself: how the lists are ordered. */
export const byIndex = (o: { readonly index: number }): number => o.index
export const itself = (i: number): number => i
