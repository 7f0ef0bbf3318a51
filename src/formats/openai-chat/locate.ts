import type { SniffedInput } from '../types.ts'
import { lineOfOffset } from '../util.ts'

/**
 * Finding where a value sits in a JSON document, so warnings about `messages[7]` or `input[3]`
 * can name a line and offset although `JSON.parse` forgets positions. Used by the OpenAI chat
 * and Responses importers (both read single JSON documents, possibly inside a capture wrapper).
 *
 * The scanner only skips over values; it is run lazily, once per warning.
 */

export type JsonPath = readonly (string | number)[]

function skipWs(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos)
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break
    pos++
  }
  return pos
}

/** `pos` is at the opening quote; returns the index after the closing quote. */
function skipString(text: string, pos: number): number {
  let i = pos + 1
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 92 /* \ */) i += 2
    else if (c === 34 /* " */) return i + 1
    else i++
  }
  return text.length
}

function skipValue(text: string, pos: number): number {
  const c = text[pos]
  if (c === '"') return skipString(text, pos)
  if (c === '{' || c === '[') {
    let depth = 0
    let i = pos
    while (i < text.length) {
      const ch = text[i]
      if (ch === '"') {
        i = skipString(text, i)
        continue
      }
      if (ch === '{' || ch === '[') depth++
      else if (ch === '}' || ch === ']') {
        depth--
        if (depth === 0) return i + 1
      }
      i++
    }
    return text.length
  }
  let i = pos
  while (i < text.length && !/[\s,\]}]/.test(text[i] ?? '')) i++
  return i
}

/** Character offset of the value at `path` inside the JSON `text`, or undefined. */
export function locateJsonPath(text: string, path: JsonPath, start = 0): number | undefined {
  let pos = skipWs(text, start)
  for (const key of path) {
    const c = text[pos]
    if (typeof key === 'number') {
      if (c !== '[') return undefined
      pos = skipWs(text, pos + 1)
      for (let i = 0; i < key; i++) {
        if (text[pos] === ']' || pos >= text.length) return undefined
        pos = skipWs(text, skipValue(text, pos))
        if (text[pos] !== ',') return undefined
        pos = skipWs(text, pos + 1)
      }
      if (text[pos] === ']' || pos >= text.length) return undefined
    } else {
      if (c !== '{') return undefined
      pos = skipWs(text, pos + 1)
      let found = false
      while (pos < text.length && text[pos] === '"') {
        const end = skipString(text, pos)
        let name: unknown
        try {
          name = JSON.parse(text.slice(pos, end)) as unknown
        } catch {
          return undefined
        }
        pos = skipWs(text, end)
        if (text[pos] !== ':') return undefined
        pos = skipWs(text, pos + 1)
        if (name === key) {
          found = true
          break
        }
        pos = skipWs(text, skipValue(text, pos))
        if (text[pos] === ',') pos = skipWs(text, pos + 1)
      }
      if (!found) return undefined
    }
  }
  return pos
}

export interface Position {
  readonly line: number
  readonly offset: number
}

/**
 * Builds a locator for paths relative to the conversation body (request or response). When the
 * body sits inside a capture wrapper (`*.exchanges.json`, VCR `interactions`) the wrapper path is
 * tried first; bodies stored as strings (HAR, proxy logs) cannot be located: line 0, offset 0.
 */
export function bodyLocator(
  input: SniffedInput,
): (which: 'request' | 'response', path: JsonPath) => Position {
  const cache = new Map<string, Position>()
  let budget = 200 // a pathological file with thousands of warnings must stay linear-ish
  return (which, path) => {
    const cacheKey = which + JSON.stringify(path)
    const hit = cache.get(cacheKey)
    if (hit) return hit
    let found: Position = { line: 0, offset: 0 }
    if (input.kind === 'json' && budget > 0) {
      budget--
      for (const prefix of prefixes(input, which)) {
        const offset = locateJsonPath(input.text, [...prefix, ...path])
        if (offset !== undefined) {
          found = { line: lineOfOffset(input.text, offset), offset }
          break
        }
      }
    }
    cache.set(cacheKey, found)
    return found
  }
}

function prefixes(
  input: SniffedInput & { kind: 'json' },
  which: 'request' | 'response',
): JsonPath[] {
  const ex = input.exchange
  if (!ex) return [[]] // the pasted body itself
  const i = ex.used - 1
  const out: JsonPath[] = []
  for (const field of ['body', 'parsed_body']) {
    out.push([i, which, field], ['interactions', i, which, field])
  }
  return out
}
