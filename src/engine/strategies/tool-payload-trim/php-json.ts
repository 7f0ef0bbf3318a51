/**
 * A faithful-enough model of PHP's `json_decode($text, true)` and `json_encode($value)` with the
 * DEFAULT flags, which is what adachsoft measures and hashes omitted fields with.
 *
 * What matters for byte counts and hashes:
 * - objects decode to PHP arrays: key order kept, decimal-integer string keys become int keys, an
 *   empty object re-encodes as `[]`, and `{"0":…,"1":…}` re-encodes as a list `[…]`;
 * - integers stay integers (int64; beyond that they become floats), `1.0` is a float that
 *   re-encodes as `1`;
 * - strings encode with `/` as `\/`, every non-ASCII character as `\uXXXX` (lowercase hex,
 *   surrogate pairs for astral characters), control characters as `\b \f \n \r \t` or `\u00XX`;
 * - failures (a lone surrogate, INF/NAN, nesting over 512) make `json_encode` return false — the
 *   caller leaves such a field as it is, as adachsoft does.
 */
import { phpJsonFloat } from './php-number.ts'

export interface PhpInt {
  readonly kind: 'int'
  readonly value: bigint
}
export interface PhpFloat {
  readonly kind: 'float'
  readonly value: number
}
/** An int key is a bigint, a string key a string (as PHP's hash tables distinguish them). */
export type PhpKey = string | bigint
export type PhpEntry = readonly [PhpKey, PhpValue]
export interface PhpArray {
  readonly kind: 'array'
  readonly entries: readonly PhpEntry[]
}
export type PhpValue = null | boolean | string | PhpInt | PhpFloat | PhpArray

export type Decoded =
  { readonly ok: true; readonly value: PhpValue } | { readonly ok: false; readonly error: string }

/** PHP's default `$depth` for json_decode / json_encode. */
export const PHP_JSON_DEPTH = 512
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y

/** The key PHP stores for a string key (`ZEND_HANDLE_NUMERIC_STR`): "12" → 12, "012" stays. */
export function phpKey(key: string): PhpKey {
  if (!/^(?:0|-?[1-9]\d*)$/.test(key)) return key
  const n = BigInt(key)
  return n >= INT64_MIN && n <= INT64_MAX ? n : key
}

/** Look a top-level key up as `$array[$key]` would. */
export function phpGet(array: PhpArray, key: string): PhpValue | undefined {
  const k = phpKey(key)
  for (const [ek, v] of array.entries) if (ek === k) return v
  return undefined
}

class Builder {
  readonly entries: [PhpKey, PhpValue][] = []
  private readonly at = new Map<PhpKey, number>()
  set(key: PhpKey, value: PhpValue): void {
    const i = this.at.get(key)
    if (i !== undefined) (this.entries[i] as [PhpKey, PhpValue])[1] = value
    else {
      this.at.set(key, this.entries.length)
      this.entries.push([key, value])
    }
  }
}

class DecodeError extends Error {}

/** `json_decode($text, true)`; a failure (any syntax, UTF-8/UTF-16 or depth error) is reported. */
export function phpJsonDecode(text: string): Decoded {
  let i = 0
  let depth = 0
  const fail = (what: string): never => {
    throw new DecodeError(`${what} at offset ${i}`)
  }
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i)
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++
      else return
    }
  }
  const literal = (word: string, value: PhpValue): PhpValue => {
    if (!text.startsWith(word, i)) fail('syntax error')
    i += word.length
    return value
  }
  const string = (): string => {
    i++ // opening quote
    let out = ''
    let run = i
    for (;;) {
      if (i >= text.length) fail('unterminated string')
      const c = text.charCodeAt(i)
      if (c === 0x22) {
        out += text.slice(run, i)
        i++
        return out
      }
      if (c < 0x20) fail('control character in string')
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = text.charCodeAt(i + 1)
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) fail('malformed UTF-8')
        i += 2
        continue
      }
      if (c !== 0x5c) {
        i++
        continue
      }
      out += text.slice(run, i)
      const e = text[i + 1]
      i += 2
      if (e === 'u') {
        const unit = hex4()
        if (unit >= 0xd800 && unit <= 0xdbff) {
          if (text[i] !== '\\' || text[i + 1] !== 'u') fail('single unpaired UTF-16 surrogate')
          i += 2
          const low = hex4()
          if (low < 0xdc00 || low > 0xdfff) fail('single unpaired UTF-16 surrogate')
          out += String.fromCharCode(unit, low)
        } else if (unit >= 0xdc00 && unit <= 0xdfff) fail('single unpaired UTF-16 surrogate')
        else out += String.fromCharCode(unit)
      } else {
        const simple = ESCAPES[e ?? '']
        if (simple === undefined) fail('syntax error')
        out += simple
      }
      run = i
    }
  }
  const hex4 = (): number => {
    const h = text.slice(i, i + 4)
    if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('syntax error')
    i += 4
    return parseInt(h, 16)
  }
  const number = (): PhpValue => {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (!m) return fail('syntax error')
    i += m[0].length
    if (m[1] === undefined && m[2] === undefined) {
      const n = BigInt(m[0])
      if (n >= INT64_MIN && n <= INT64_MAX) return { kind: 'int', value: n }
    }
    return { kind: 'float', value: Number(m[0]) }
  }
  const container = (close: '}' | ']'): PhpArray => {
    if (++depth > PHP_JSON_DEPTH) fail('maximum stack depth exceeded')
    i++
    const b = new Builder()
    ws()
    if (text[i] === close) i++
    else
      for (let index = 0n; ; index++) {
        if (close === '}') {
          if (text[i] !== '"') fail('syntax error')
          const key = string()
          ws()
          if (text[i] !== ':') fail('syntax error')
          i++
          b.set(phpKey(key), value())
        } else b.set(index, value())
        ws()
        if (text[i] === ',') {
          i++
          ws()
          continue
        }
        if (text[i] !== close) fail('syntax error')
        i++
        break
      }
    depth--
    return { kind: 'array', entries: b.entries }
  }
  const value = (): PhpValue => {
    ws()
    const c = text[i]
    if (c === '{') return container('}')
    if (c === '[') return container(']')
    if (c === '"') return string()
    if (c === 't') return literal('true', true)
    if (c === 'f') return literal('false', false)
    if (c === 'n') return literal('null', null)
    return number()
  }
  try {
    const v = value()
    ws()
    if (i !== text.length) fail('syntax error')
    return { ok: true, value: v }
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message }
    throw e
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

const HEX = '0123456789abcdef'
const hex4 = (u: number) =>
  `\\u${HEX[(u >> 12) & 15]}${HEX[(u >> 8) & 15]}${HEX[(u >> 4) & 15]}${HEX[u & 15]}`

/** `json_encode($string)` with default flags, or null when the string is not valid UTF-8. */
export function phpJsonString(s: string): string | null {
  let out = '"'
  let run = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    let esc: string
    if (c >= 0x20 && c < 0x80 && c !== 0x22 && c !== 0x5c && c !== 0x2f) continue
    if (c === 0x22) esc = '\\"'
    else if (c === 0x5c) esc = '\\\\'
    else if (c === 0x2f) esc = '\\/'
    else if (c === 0x08) esc = '\\b'
    else if (c === 0x0c) esc = '\\f'
    else if (c === 0x0a) esc = '\\n'
    else if (c === 0x0d) esc = '\\r'
    else if (c === 0x09) esc = '\\t'
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1)
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return null
      esc = hex4(c) + hex4(next)
      out += s.slice(run, i) + esc
      i++
      run = i + 1
      continue
    } else esc = hex4(c)
    out += s.slice(run, i) + esc
    run = i + 1
  }
  return out + s.slice(run) + '"'
}

/** `json_encode($value)` with default flags; null where PHP would return false. */
export function phpJsonEncode(value: PhpValue): string | null {
  const parts: string[] = []
  const walk = (v: PhpValue, depth: number): boolean => {
    if (v === null) parts.push('null')
    else if (v === true) parts.push('true')
    else if (v === false) parts.push('false')
    else if (typeof v === 'string') {
      const s = phpJsonString(v)
      if (s === null) return false
      parts.push(s)
    } else if (v.kind === 'int') parts.push(v.value.toString())
    else if (v.kind === 'float') {
      if (!Number.isFinite(v.value)) return false
      parts.push(phpJsonFloat(v.value))
    } else {
      if (depth >= PHP_JSON_DEPTH) return false
      const list = isList(v)
      parts.push(list ? '[' : '{')
      let first = true
      for (const [k, item] of v.entries) {
        if (!first) parts.push(',')
        first = false
        if (!list) {
          const key = phpJsonString(String(k))
          if (key === null) return false
          parts.push(key, ':')
        }
        if (!walk(item, depth + 1)) return false
      }
      parts.push(list ? ']' : '}')
    }
    return true
  }
  return walk(value, 0) ? parts.join('') : null
}

/** PHP's `array_is_list`: keys are exactly 0, 1, …, n−1 in order (an empty array is a list). */
export function isList(array: PhpArray): boolean {
  let n = 0n
  for (const [k] of array.entries) if (k !== n++) return false
  return true
}
