/**
 * Paths into a config — the one notation of the app, the session and validation: segment arrays
 * (`['pipeline', 2, 'params', 'keep']`, what forms build) and text (`pipeline[2].params.keep`,
 * what validation issues and sweeps name). Dependency-free: the UI gets it through the worker
 * protocol (issue paths cross the boundary in this notation), validation and the session
 * directly.
 *
 * Every update is immutable (containers on the way are copied, the rest is shared): the store
 * compares configs by reference to tell a form edit from a JSON-view edit.
 */

export type Segment = string | number
export type Path = readonly Segment[]

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `['a', 'b', 2, 'c']` → `a.b[2].c` (the notation of `formatPath` in config/validate.ts). */
export function pathText(path: Path): string {
  let out = ''
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`
    else out += out === '' ? s : `.${s}`
  }
  return out
}

/** True when `path` names `ancestor` itself or something inside it (text form). */
export function isWithin(path: string, ancestor: string): boolean {
  if (ancestor === '') return true
  if (!path.startsWith(ancestor)) return false
  const next = path.charAt(ancestor.length)
  return next === '' || next === '.' || next === '['
}

function child(container: unknown, segment: Segment): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? container[segment] : undefined
  return isRecord(container) && Object.hasOwn(container, segment) ? container[segment] : undefined
}

/** The value at `path`, or undefined when it leads nowhere. */
export function getIn(root: unknown, path: Path): unknown {
  let current = root
  for (const s of path) current = child(current, s)
  return current
}

/**
 * A copy of `root` with `value` at `path`; containers that are missing (or of the wrong kind) are
 * created. `undefined` removes an object key, so an emptied optional field falls back to the
 * schema default instead of being written as `null`.
 */
export function setIn(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  const [head, ...rest] = path as [Segment, ...Segment[]]
  const next = setIn(child(root, head), rest, value)
  if (typeof head === 'number') {
    const copy = Array.isArray(root) ? [...(root as unknown[])] : []
    copy[head] = next
    return copy
  }
  const copy: Record<string, unknown> = isRecord(root) ? { ...root } : {}
  if (next === undefined) delete copy[head]
  else copy[head] = next
  return copy
}

/** A copy of `list` with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list]
  if (from < 0 || from >= copy.length) return copy
  const target = Math.max(0, Math.min(copy.length - 1, to))
  const [item] = copy.splice(from, 1) as [T]
  copy.splice(target, 0, item)
  return copy
}

/** A copy of `list` without the item at `index`. */
export function removeItem<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index)
}

/** The array at `path`, or an empty one when there is none (a hand-edited config may lack it). */
export function listAt(root: unknown, path: Path): readonly unknown[] {
  const value = getIn(root, path)
  return Array.isArray(value) ? value : []
}

const TOKEN = /^(?:\.?([A-Za-z_$][\w$]*)|\[(\d+)\])/

/** `a.b[2].c` → `['a', 'b', 2, 'c']`; null when the text is not a path. */
export function parsePath(path: string): Segment[] | null {
  const segments: Segment[] = []
  let rest = path
  while (rest.length > 0) {
    const match = TOKEN.exec(rest)
    if (!match) return null
    const [whole, key, index] = match
    // A leading dot is only allowed between segments ("a.b"), never at the start (".a").
    if (segments.length === 0 && whole.startsWith('.')) return null
    segments.push(key !== undefined ? key : Number(index))
    rest = rest.slice(whole.length)
  }
  return segments.length > 0 ? segments : null
}

/** `['a', 'b', 2, 'c']` → `a.b[2].c`. */

export function getAtPath(root: unknown, path: string): unknown {
  const segments = parsePath(path)
  if (!segments) return undefined
  let current = root
  for (const s of segments) current = child(current, s)
  return current
}

export type SetResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

export function setNumberAtPath(root: unknown, path: string, value: number): SetResult {
  const segments = parsePath(path)
  if (!segments)
    return { ok: false, message: `"${path}" is not a path like pipeline[1].params.keep` }
  let current = root
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as Segment
    const next = child(current, s)
    if (next === undefined) {
      const where = pathText(segments.slice(0, i + 1))
      return { ok: false, message: `nothing at ${where}` }
    }
    current = next
  }
  if (typeof current !== 'number' && current !== null) {
    return { ok: false, message: `${path} is not a number (it is ${JSON.stringify(current)})` }
  }
  return { ok: true, value: setIn(root, segments, value) }
}
