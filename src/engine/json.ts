/**
 * JSON parsing with a bound on nesting depth.
 *
 * `JSON.parse` itself is iterative in V8 and accepts any depth, but nearly everything that walks
 * the parsed value afterwards recurses: `JSON.stringify` (throws `RangeError` at a few thousand
 * levels), structured cloning to and from the worker, and our own walkers. A tool result holding
 * 6,000 nested arrays used to fail a whole import with "Maximum call stack size exceeded". So
 * every parse in the pure layers goes through this module (the lint config forbids `JSON.parse`
 * elsewhere in them): values deeper than {@link MAX_JSON_DEPTH} are either rejected with a
 * positioned error (`parseJson`) or kept, from that depth on, as their JSON text
 * (`parseJsonBounded`, used by importers so that the rest of the file still loads).
 */

/**
 * Deepest nesting accepted as structure. Real transcripts nest a few dozen levels; 512 leaves a
 * wide margin under every recursive consumer, in Node and in a browser worker's smaller stack.
 */
export const MAX_JSON_DEPTH = 512

/** A parse refused because of nesting. The message carries "at position N" like V8's errors. */
export class JsonDepthError extends SyntaxError {
  readonly position: number
  readonly limit: number
  constructor(position: number, limit: number) {
    super(`nesting deeper than ${limit} levels at position ${position}`)
    this.name = 'JsonDepthError'
    this.position = position
    this.limit = limit
  }
}

/**
 * The offset of the first `[` or `{` that opens level `limit + 1` in JSON text, or -1 when the
 * text never nests that deep. Linear, no parse, no recursion: strings are skipped with
 * `indexOf`, so a transcript made mostly of long strings is scanned at memory speed. Meant for
 * text that `JSON.parse` accepted (on invalid text the answer is only approximate).
 */
export function tooDeepAt(text: string, limit: number = MAX_JSON_DEPTH): number {
  // Nesting past `limit` needs more than `limit` openers and as many closers.
  if (text.length <= 2 * limit) return -1
  let depth = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      i = stringEnd(text, i)
      if (i < 0) return -1
      continue
    }
    if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return i
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
    i++
  }
  return -1
}

/** Offset just past the closing quote of the string opening at `start`, or -1 if unclosed. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1)
  for (;;) {
    if (j < 0) return -1
    let backslashes = 0
    for (let k = j - 1; text.charCodeAt(k) === 92; k--) backslashes++
    if (backslashes % 2 === 0) return j + 1
    j = text.indexOf('"', j + 1)
  }
}

/** Offset just past the value that opens at `start` (a `[` or `{`), or -1 if it never closes. */
function valueEnd(text: string, start: number): number {
  let depth = 0
  let i = start
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      i = stringEnd(text, i)
      if (i < 0) return -1
      continue
    }
    if (c === 91 || c === 123) depth++
    else if (c === 93 || c === 125) {
      depth--
      if (depth === 0) return i + 1
    }
    i++
  }
  return -1
}

/**
 * `JSON.parse` that refuses nesting deeper than `limit` with a {@link JsonDepthError}
 * ("… at position N"). For re-reading strings we wrote or argument strings a caller can keep raw.
 */
export function parseJson(text: string, limit: number = MAX_JSON_DEPTH): unknown {
  // eslint-disable-next-line no-restricted-properties -- the one bounded entry point
  const value = JSON.parse(text) as unknown
  const at = tooDeepAt(text, limit)
  if (at >= 0) throw new JsonDepthError(at, limit)
  return value
}

/** What `parseJsonBounded` had to keep as text. */
export interface DeepJson {
  /** Offset (into the parsed text) of the first value nested deeper than the limit. */
  readonly offset: number
  /** How many too-deep values were replaced by their JSON text. */
  readonly count: number
  readonly limit: number
}

/**
 * `JSON.parse` for imported documents: the value never nests deeper than `limit`. A value that
 * opens at level `limit + 1` is replaced by a string holding its exact JSON text, so nothing is
 * lost and everything around it keeps its structure; `deep` says where that happened. Throws the
 * same `SyntaxError` as `JSON.parse` on invalid text.
 */
export function parseJsonBounded(
  text: string,
  limit: number = MAX_JSON_DEPTH,
): { value: unknown; deep?: DeepJson } {
  // eslint-disable-next-line no-restricted-properties -- validates the text; iterative in V8
  const value = JSON.parse(text) as unknown
  const first = tooDeepAt(text, limit)
  if (first < 0) return { value }
  // The text is valid JSON, so every too-deep value is complete: quote each one, in one pass.
  const pieces: string[] = []
  let from = 0
  let count = 0
  let depth = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      i = stringEnd(text, i)
      if (i < 0) break
      continue
    }
    if (c === 91 || c === 123) {
      if (depth === limit) {
        const end = valueEnd(text, i)
        if (end < 0) break
        pieces.push(text.slice(from, i), JSON.stringify(text.slice(i, end)))
        count++
        from = end
        i = end
        continue
      }
      depth++
    } else if (c === 93 || c === 125) depth--
    i++
  }
  pieces.push(text.slice(from))
  // eslint-disable-next-line no-restricted-properties -- the rewritten text is at most `limit` deep
  const bounded = JSON.parse(pieces.join('')) as unknown
  return { value: bounded, deep: { offset: first, count, limit } }
}
