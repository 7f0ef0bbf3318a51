import type { SniffedInput } from '../types.ts'
import { lineOfOffset } from '../util.ts'

/** A step into a JSON document: an object key or an array index. */
export type JsonPath = readonly (string | number)[]

/** Where something is in the input: 1-based line (0 when unknown) and 0-based offset. */
export interface Position {
  readonly line: number
  readonly offset: number
}

const UNKNOWN: Position = { line: 0, offset: 0 }

/**
 * Finds the text position of a value inside a JSON document by its path, so warnings about a
 * single JSON body can still name a line (the API formats are one document, not JSON Lines).
 * It scans the text lazily and only when a warning is raised: no second full parse.
 *
 * When the body came out of a capture wrapper (VCR, HAR, proxy log) the path is relative to the
 * embedded request, whose text position is not known: the position is then line 0 / offset 0
 * and the caller's message names the JSON path instead.
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
      if (text[pos] === ']') return undefined
      for (let i = 0; i < step; i++) {
        pos = skipWs(text, skipValue(text, pos))
        if (text[pos] !== ',') return undefined
        pos = skipWs(text, pos + 1)
      }
    } else {
      if (text[pos] !== '{') return undefined
      pos = skipWs(text, pos + 1)
      for (;;) {
        if (text[pos] !== '"') return undefined
        const end = skipString(text, pos)
        let key: unknown
        try {
          key = JSON.parse(text.slice(pos, end))
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
