/**
 * Dot/bracket paths into a config (`pipeline[1].params.keep`, `window.contextTokens`): the same
 * notation as the validation issues (`formatPath` in config/validate.ts), so a sweep parameter,
 * an issue and a form field all name a value the same way.
 *
 * Pure and dependency-free: the worker uses it to sweep, the UI (through the store) to apply a
 * sweep point to the working config.
 */

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number

const TOKEN = /^(?:\.?([A-Za-z_$][\w$]*)|\[(\d+)\])/

/** `a.b[2].c` → `['a', 'b', 2, 'c']`; null when the text is not a path. */
export function parsePath(path: string): PathSegment[] | null {
  const segments: PathSegment[] = []
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
export function formatSegments(segments: readonly PathSegment[]): string {
  let out = ''
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`
    else out += out === '' ? s : `.${s}`
  }
  return out
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function child(container: unknown, segment: PathSegment): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? container[segment] : undefined
  return isRecord(container) && Object.hasOwn(container, segment) ? container[segment] : undefined
}

/** The value at `path`, or undefined when the path is malformed or leads nowhere. */
export function getAtPath(root: unknown, path: string): unknown {
  const segments = parsePath(path)
  if (!segments) return undefined
  let current = root
  for (const s of segments) current = child(current, s)
  return current
}

export type SetResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

function setIn(container: unknown, segments: readonly PathSegment[], value: unknown): unknown {
  const [head, ...rest] = segments as [PathSegment, ...PathSegment[]]
  const next = rest.length === 0 ? value : setIn(child(container, head), rest, value)
  if (typeof head === 'number') {
    const copy = [...(container as unknown[])]
    copy[head] = next
    return copy
  }
  return { ...(container as Record<string, unknown>), [head]: next }
}

/**
 * A copy of `root` with the number at `path` replaced by `value` (the containers on the way are
 * copied, everything else is shared). The path must already lead to a number (or a null, the
 * "off" value of optional numeric params): a sweep changes a value, it never invents a key that
 * validation would then silently drop.
 */
export function setNumberAtPath(root: unknown, path: string, value: number): SetResult {
  const segments = parsePath(path)
  if (!segments)
    return { ok: false, message: `"${path}" is not a path like pipeline[1].params.keep` }
  let current = root
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as PathSegment
    const next = child(current, s)
    if (next === undefined) {
      const where = formatSegments(segments.slice(0, i + 1))
      return { ok: false, message: `nothing at ${where}` }
    }
    current = next
  }
  if (typeof current !== 'number' && current !== null) {
    return { ok: false, message: `${path} is not a number (it is ${JSON.stringify(current)})` }
  }
  return { ok: true, value: setIn(root, segments, value) }
}
