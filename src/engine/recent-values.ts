/**
 * A few values kept per key, the least recently used dropped first. The engine's value-keyed
 * caches (a step's params value, the protections' config value) hold megabytes per entry on a
 * large conversation, and an edit and its undo alternate between a few values: the value in use
 * must outlive a run of edits, and the rest must not pile up.
 */

/** The value at `key`, made the most recently used. */
export function recall<K, V>(map: Map<K, V>, key: K): V | undefined {
  const v = map.get(key)
  if (v !== undefined) {
    map.delete(key)
    map.set(key, v)
  }
  return v
}

/** Keep `v` at `key` as the most recently used, dropping the least recently used beyond `max`. */
export function remember<K, V>(map: Map<K, V>, key: K, v: V, max: number): V {
  map.delete(key)
  if (map.size >= max) {
    const oldest = map.keys().next()
    if (!oldest.done) map.delete(oldest.value)
  }
  map.set(key, v)
  return v
}
