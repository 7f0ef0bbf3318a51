import type { Message } from '../engine/model.ts'
import type { ParseWarning, SniffedInput } from './types.ts'
import { IdAllocator, lineOfOffset, warning } from './util.ts'
import { parseJson } from '../engine/json.ts'

/**
 * Finding where a value sits in a JSON document, so warnings about `messages[7]` or `input[3]`
 * can name a line and offset although `JSON.parse` forgets positions (the API formats are one
 * document, not JSON Lines). The scanner only skips over values; it runs lazily, once per
 * warning: no second full parse.
 */

/** A step into a JSON document: an object key or an array index. */
export type JsonPath = readonly (string | number)[]

/** Where something is in the input: 1-based line (0 when unknown) and 0-based offset. */
export interface Position {
  readonly line: number
  readonly offset: number
}

const UNKNOWN: Position = { line: 0, offset: 0 }

/**
 * Locates paths relative to the pasted JSON document itself. When the body came out of a capture
 * wrapper (VCR, HAR, proxy log) the path is relative to the embedded request, whose text position
 * is not known: the position is then line 0 / offset 0 and the caller's message names the JSON
 * path instead (see `bodyLocator` for importers that look inside the wrapper).
 */
export class JsonLocator {
  private readonly text: string | undefined

  constructor(input: SniffedInput) {
    this.text = input.kind === 'json' && !input.exchange ? input.text : undefined
  }

  at(path: JsonPath): Position {
    if (this.text === undefined) return UNKNOWN
    const offset = locateJsonPath(this.text, path)
    if (offset === undefined) return UNKNOWN
    return { line: lineOfOffset(this.text, offset), offset }
  }
}

/**
 * What the single-document importers (Anthropic, Gemini, Gemini CLI) build up: messages with
 * fresh ids and warnings positioned by the JSON path they are about.
 */
export class JsonBuilder {
  readonly warnings: ParseWarning[] = []
  readonly messages: Message[] = []
  readonly ids = new IdAllocator()
  readonly locator: JsonLocator

  constructor(input: SniffedInput) {
    this.locator = new JsonLocator(input)
  }

  warn = (path: JsonPath, message: string): void => {
    const at = this.locator.at(path)
    this.warnings.push(warning(at.line, at.offset, `${pathText(path)}: ${message}`))
  }
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
    let found: Position = UNKNOWN
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

/** Render a path for messages: `messages[3].content[1]`. */
export function pathText(path: JsonPath): string {
  let out = ''
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out ? `.${step}` : step
  return out || '(root)'
}

/** Offset of the value at `path` in a JSON text, or undefined if the path does not exist. */
export function locateJsonPath(text: string, path: JsonPath): number | undefined {
  let pos = skipWs(text, 0)
  for (const step of path) {
    if (typeof step === 'number') {
      if (text[pos] !== '[') return undefined
      pos = skipWs(text, pos + 1)
      for (let i = 0; i < step; i++) {
        if (pos >= text.length || text[pos] === ']') return undefined
        pos = skipWs(text, skipValue(text, pos))
        if (text[pos] !== ',') return undefined
        pos = skipWs(text, pos + 1)
      }
      if (pos >= text.length || text[pos] === ']') return undefined
    } else {
      if (text[pos] !== '{') return undefined
      pos = skipWs(text, pos + 1)
      for (;;) {
        if (text[pos] !== '"') return undefined
        const end = skipString(text, pos)
        let key: unknown
        try {
          key = parseJson(text.slice(pos, end))
        } catch {
          return undefined
        }
        pos = skipWs(text, end)
        if (text[pos] !== ':') return undefined
        pos = skipWs(text, pos + 1)
        if (key === step) break
        pos = skipWs(text, skipValue(text, pos))
        if (text[pos] !== ',') return undefined
        pos = skipWs(text, pos + 1)
      }
    }
  }
  return pos < text.length ? pos : undefined
}

function skipWs(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos)
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break
    pos++
  }
  return pos
}

/** `pos` is on the opening quote; returns the offset just after the closing quote. */
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

/** Offset just after the value starting at `pos` (object, array, string or literal). */
function skipValue(text: string, pos: number): number {
  const first = text[pos]
  if (first === '"') return skipString(text, pos)
  if (first === '{' || first === '[') {
    let depth = 0
    let i = pos
    while (i < text.length) {
      const c = text[i]
      if (c === '"') {
        i = skipString(text, i)
        continue
      }
      if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
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
