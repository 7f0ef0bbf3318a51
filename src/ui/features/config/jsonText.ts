/**
 * Parsing the JSON view: the value, or where the text stops being JSON (1-based line and column).
 * Browsers word `JSON.parse` errors differently and some omit the position, so the position comes
 * from a small scanner of our own; the message is the engine's.
 */

export type JsonParse =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number }

/** Offset of the first character that makes `text` invalid JSON (text.length when it ends early). */
export function jsonErrorOffset(text: string): number {
  let i = 0
  const fail = (at: number): never => {
    throw at
  }
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++
  }
  const literal = (word: string) => {
    for (const ch of word) {
      if (text.charAt(i) !== ch) fail(i)
      i++
    }
  }
  const string = () => {
    i++ // opening quote
    while (i < text.length) {
      const ch = text.charAt(i)
      if (ch === '"') {
        i++
        return
      }
      if (ch === '\\') {
        const esc = text.charAt(i + 1)
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i)
          i += 6
        } else if ('"\\/bfnrt'.includes(esc) && esc !== '') i += 2
        else fail(i)
      } else if (ch < ' ') fail(i)
      else i++
    }
    fail(i)
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i))
    if (!match || match[0] === '' || match[0] === '-') fail(i)
    i += (match as RegExpExecArray)[0].length
  }
  const value = (): void => {
    ws()
    const ch = text.charAt(i)
    if (ch === '{') {
      i++
      ws()
      if (text.charAt(i) === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text.charAt(i) !== '"') fail(i)
        string()
        ws()
        if (text.charAt(i) !== ':') fail(i)
        i++
        value()
        ws()
        const next = text.charAt(i)
        i++
        if (next === '}') return
        if (next !== ',') fail(i - 1)
      }
    }
    if (ch === '[') {
      i++
      ws()
      if (text.charAt(i) === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        const next = text.charAt(i)
        i++
        if (next === ']') return
        if (next !== ',') fail(i - 1)
      }
    }
    if (ch === '"') return string()
    if (ch === 't') return literal('true')
    if (ch === 'f') return literal('false')
    if (ch === 'n') return literal('null')
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number()
    fail(i)
  }
  try {
    value()
    ws()
    if (i < text.length) return i
    return -1
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset)
  const lines = before.split('\n')
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 }
}

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    const found = jsonErrorOffset(text)
    const offset = found < 0 ? text.length : found
    const { line, column } = lineColumn(text, offset)
    // Drop the engine's own position wording: we state line and column ourselves.
    const raw = error instanceof Error ? error.message : String(error)
    const message = raw.replace(/\s*(?:in JSON )?at position \d+.*$/, '').trim() || 'invalid JSON'
    return { ok: false, message, line, column }
  }
}
