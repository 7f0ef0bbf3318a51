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
  let at = list.length
  while (at > 0 && indexOf(list[at - 1] as V) > index) at--
  list.splice(at, 0, value)
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
export const addTo = (map: Map<string, Set<string>>, key: string, value: string): void => {
  const set = map.get(key)
  if (set) set.add(value)
  else map.set(key, new Set([value]))
}
