import { LINE_RE, numberKey, UNIT_SPACED_RE, UNIT_TIGHT_RE, unitKey } from './number-keys.ts'
import { COMMON_ROOTS, STOP_TOKENS, STOP_WORDS } from './stoplist.ts'

/**
 * Distinctive strings: the pieces of a text that identify *this* transcript's content — paths,
 * code identifiers, line numbers, non-round numbers, numbers with units, quoted phrases and error
 * messages — as opposed to words any agent writes. Seeing one in a later assistant message means
 * the agent got it from somewhere; if the kept context does not hold it, the removed part did.
 *
 * Two kinds, because they are matched differently:
 * - **keys**: atomic strings (`src/config/parse.ts`, `parse_config`, `line 212`, `45ms`), indexed
 *   by exact value;
 * - **phrases**: several words (a quoted string, an error message), matched as a substring of
 *   normalised text.
 *
 * Shape rules decide what is distinctive (an underscore between letters, an internal capital, a
 * path with a directory or an extension, three significant digits…), then `stoplist.ts` removes
 * the shapes everyone writes (`console.log`, `package.json`, `TypeError`, `2024`, `1024`).
 */

/** Characters that can belong to a path, identifier or number: `[A-Za-z0-9_$./~@+:-]`. */
const TOKEN_CHAR = new Uint8Array(128)
/** Token characters that make a token worth a look (a plain word has none of them). */
const MARKER = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[A-Za-z0-9_$./~@+:-]/.test(ch)) TOKEN_CHAR[c] = 1
  if (/[0-9_$./~@+:-]/.test(ch)) MARKER[c] = 1
}
const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isAlnum = (c: number): boolean => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122)
const isWordChar = (c: number): boolean => c < 128 && TOKEN_CHAR[c] === 1 && c !== 46 && c !== 47

/**
 * Call `visit` with the bounds of every run of token characters that has a marker (a digit,
 * `_ . / - : @`…, or a capital after the first letter); plain words are skipped without being
 * sliced out, which is what keeps indexing a 25 MB transcript fast. `1,234,567` stays one run.
 * Bounds, not slices: a restricted extraction slices only the tokens that can yield a wanted key.
 */
function scanTokens(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length
  let i = 0
  while (i < n) {
    let c = text.charCodeAt(i)
    if (c >= 128 || TOKEN_CHAR[c] !== 1) {
      i++
      continue
    }
    const start = i
    let marked = false
    for (;;) {
      if (MARKER[c] === 1 || (i > start && c >= 65 && c <= 90)) marked = true
      i++
      if (i >= n) break
      c = text.charCodeAt(i)
      if (c < 128 && TOKEN_CHAR[c] === 1) continue
      // A thousands separator: digit , ddd (not followed by another word character).
      if (
        c === 44 &&
        isDigit(text.charCodeAt(i - 1)) &&
        isDigit(text.charCodeAt(i + 1)) &&
        isDigit(text.charCodeAt(i + 2)) &&
        isDigit(text.charCodeAt(i + 3)) &&
        !isWordChar(text.charCodeAt(i + 4))
      ) {
        marked = true
        continue
      }
      break
    }
    if (marked && i - start >= 3) visit(start, i)
  }
}

const isHex = (t: string): boolean => /^[0-9a-f]{7,64}$/.test(t) && /\d/.test(t) && /[a-f]/.test(t)

/**
 * One word-like token with no dot, slash or hyphen: snake_case, camelCase, PascalCase with two
 * humps, SCREAMING_CASE, a hash, or a letter/digit mix long enough not to be `utf8` or `h264`.
 */
function identifierKey(t: string): string | null {
  // '' would read charCodeAt(-1), a NaN that deopts this hot function; it is no key either way.
  if (t.length === 0 || STOP_TOKENS.has(t)) return null
  if (t.length >= 7 && isHex(t)) return t
  const edges = t.charCodeAt(0) === 95 || t.charCodeAt(t.length - 1) === 95 // `_`
  if (edges && /^__\w+__$/.test(t)) return null // dunders are language vocabulary
  const core = edges ? t.replace(/^_+|_+$/g, '') : t
  if (core.includes('_')) return core.length >= 5 && /[A-Za-z0-9]_[A-Za-z0-9]/.test(core) ? t : null
  if (t.length < 6) return null
  if (/^[a-z][a-z0-9]*[A-Z]/.test(t)) return t // camelCase
  if (/^[A-Z][a-z0-9]+[A-Z]/.test(t) || /^[A-Z]{2,}[a-z]/.test(t)) return t // PascalCase, HTTPServer
  let digits = 0
  let letters = 0
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i)
    if (isDigit(c)) digits++
    else if ((c | 32) >= 97 && (c | 32) <= 122) letters++
  }
  if (digits >= 2 && letters >= 2 && !/^(es|ec)\d{4}$/i.test(t) && !/^\d+(st|nd|rd|th)$/.test(t))
    return t
  return null
}

/** Whether a name ends in a file extension: `x.ts`, `my-file.tar` (a letter, then ≤ 7 alnum). */
function hasExtension(name: string): boolean {
  const dot = name.lastIndexOf('.')
  if (dot < 1 || name.length - dot - 1 > 8 || dot === name.length - 1) return false
  const before = name.charCodeAt(dot - 1)
  if (!(isAlnum(before) || before === 95 || before === 45)) return false
  const first = name.charCodeAt(dot + 1) | 32
  if (!(first >= 97 && first <= 122)) return false
  for (let i = dot + 2; i < name.length; i++) if (!isAlnum(name.charCodeAt(i))) return false
  return true
}

/**
 * A slash token: distinctive when it is clearly a path (rooted, three segments, or a file with
 * an extension), not `and/or`, `I/O` or a date. Also yields the basename, which the kept-context
 * check uses to treat `src/a/parse.ts` as known when the context shows `parse.ts`.
 */
function pathKeys(t: string, out: Set<string>): void {
  const key = t.replace(/^\.\//, '').replace(/\/+$/, '')
  const segments = key.split('/').filter(Boolean)
  if (segments.length === 0 || !/[A-Za-z]/.test(key)) return
  if (!segments.every((s) => /^[\w.@~+-]+$/.test(s))) return
  const last = segments[segments.length - 1] as string
  const hasExt = hasExtension(last)
  const rooted = /^(\/|\.\.\/|~\/)/.test(key)
  const scoped = key.startsWith('@') && segments.length === 2
  if (hasExt) out.add(last)
  // Ids, numbers and names inside a path count on their own (`/orders/<uuid>/cancel`).
  if (segments.length > 1) for (const s of segments) if (!s.includes('.')) tokenKeys(s, out)
  if (segments.length < 2 && !hasExt) return
  if ((rooted && segments.length >= 2) || segments.length >= 3 || hasExt || scoped) {
    if (!STOP_TOKENS.has(key) && key.length >= 6) out.add(key)
  }
}

/** `a.b.c`: a file name or a dotted name; its own snake/camel segments count on their own too. */
function dottedKeys(t: string, out: Set<string>): void {
  const segments = t.split('.')
  for (const s of segments) {
    const k = identifierKey(s)
    if (k) out.add(k)
  }
  // A stoplisted file name (`index.ts`) still says what the context covers; never evidence.
  if (STOP_TOKENS.has(t)) {
    if (hasExtension(t)) out.add(t)
    return
  }
  if (t.length < 5) return
  if (!segments.some((s) => s.length >= 3)) return
  if (COMMON_ROOTS.has(segments[0] as string)) return
  out.add(t)
}

function hyphenKey(t: string): string | null {
  if (STOP_TOKENS.has(t)) return null
  if (t.startsWith('--')) return /^--[a-z0-9]+(-[a-z0-9]+)+$/i.test(t) ? t : null
  const segments = t.split('-')
  if (segments.length < 2 || segments.some((s) => s.length === 0)) return null
  if (/\d/.test(t)) return t.length >= 8 ? t : null
  if (segments.length >= 3 && t.length >= 12 && segments.every((s) => s.length >= 2))
    return segments.some((s) => STOP_WORDS.has(s.toLowerCase())) ? null : t
  return null
}

/** Trailing sentence punctuation is not part of the token; a leading `:`/`+` neither. */
/** `.:,+-`: punctuation that may end a sentence or start a list item around a token. */
const isEdge = (c: number): boolean => c === 46 || c === 58 || c === 44 || c === 43 || c === 45

function trimToken(raw: string): string {
  let end = raw.length
  while (end > 0 && isEdge(raw.charCodeAt(end - 1))) end--
  let start = 0
  while (start < end && (raw.charCodeAt(start) === 58 || raw.charCodeAt(start) === 43)) start++
  // One leading `-` is a list dash; `--flag` keeps both.
  if (raw.charCodeAt(start) === 45 && raw.charCodeAt(start + 1) !== 45) start++
  return start === 0 && end === raw.length ? raw : raw.slice(start, end)
}

function tokenKeys(raw: string, out: Set<string>): void {
  // Fast path: most tokens are plain words, which are never distinctive.
  if (raw.length < 3 || /^[A-Za-z][a-z]*$/.test(raw)) return
  let t = trimToken(raw)
  if (t.length < 3 || /^[A-Za-z][a-z]*$/.test(t)) return
  // Most code tokens are one word (`parse_config`, `8080`): straight to the word rules.
  if (WORD_RE.test(t)) return wordKeys(t, out)
  if (t.includes('://') && /^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    const afterHost = t.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    if (afterHost.replace(/\/+$/, '').length > 1) out.add(t.replace(/\/+$/, ''))
    return
  }
  // `parse.ts:212:5` → the file, plus the line.
  const at = t.includes(':') ? /^(.+?[^\d:]):(\d+)(?::\d+)?$/.exec(t) : null
  if (at && (at[1] as string).includes('.')) {
    if ((at[2] as string).length >= 2) out.add(`line ${at[2]}`)
    tokenKeys(at[2] as string, out)
    t = at[1] as string
  }
  if (t.includes('::')) {
    for (const s of t.split('::')) if (s) tokenKeys(s, out)
    return
  }
  if (t.includes(':')) {
    for (const s of t.split(':')) if (s) tokenKeys(s, out)
    return
  }
  const c0 = t.charCodeAt(0)
  if ((isDigit(c0) || c0 === 118) && /^v?\d[\d,.]*$/.test(t)) {
    const k = numberKey(t)
    if (k) out.add(k)
    return
  }
  const unit = isDigit(c0) ? /^(\d+\.\d+)([A-Za-z%]+)$/.exec(t) : null
  if (unit) {
    const k = numberKey(unit[1] as string)
    if (k) out.add(k)
    return // the unit itself comes from the unit pass
  }
  if (t.includes(',')) {
    for (const s of t.split(',')) if (s) tokenKeys(s, out)
    return
  }
  if (t.includes('@') && /^[^@\s]+@[\w-]+\.[\w.-]+$/.test(t)) {
    out.add(t) // an e-mail address
    return
  }
  if (t.includes('/')) return pathKeys(t, out)
  if (
    t.includes('.') &&
    (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(t) || /^\.[\w-]+$/.test(t))
  )
    return dottedKeys(t, out)
  // `my-file.ts`: a file name with a hyphen.
  if (t.includes('-') && hasExtension(t) && /^[\w.-]+$/.test(t)) return pathKeys(t, out)
  if (t.includes('-')) {
    const k = hyphenKey(t)
    if (k) out.add(k)
    return
  }
}

const WORD_RE = /^[\w$]+$/

/** A token of word characters only: a number, a number with its unit, or an identifier. */
function wordKeys(t: string, out: Set<string>): void {
  if (isDigit(t.charCodeAt(0))) {
    if (/^\d+$/.test(t)) {
      const k = numberKey(t)
      if (k) out.add(k)
      return
    }
    const unit = /^(\d+)([A-Za-z]+)$/.exec(t)
    if (unit) {
      const k = numberKey(unit[1] as string)
      if (k) out.add(k)
      return // the unit itself comes from the unit pass
    }
  }
  const k = identifierKey(t)
  if (k) out.add(k)
}

/**
 * Every distinctive key in `text`, added to `out`. Also adds the basenames of paths even when the
 * basename alone is too common to be evidence (`index.ts`): they are needed to know what the kept
 * context covers. Use {@link isEvidenceKey} before reporting a key.
 *
 * With `only`, just the keys in `only.keys` are wanted: a token is classified only when one of
 * its word pieces is a piece of a wanted key (see {@link keyPieces}), which skips most of a long
 * tool output without changing the answer.
 */
export function extractKeys(
  text: string,
  out: Set<string> = new Set(),
  only?: Wanted,
): Set<string> {
  const add = only ? new Set<string>() : out
  scanTokens(
    text,
    only
      ? (start, end) => {
          if (mayYield(text, start, end, only)) tokenKeys(text.slice(start, end), add)
        }
      : (start, end) => tokenKeys(text.slice(start, end), add),
  )
  // The two regex passes only when a wanted key can come from them.
  if (!only || only.lines) for (const m of text.matchAll(LINE_RE)) add.add(`line ${m[1] ?? m[2]}`)
  if (!only || only.units) {
    for (const re of [UNIT_TIGHT_RE, UNIT_SPACED_RE]) {
      for (const m of text.matchAll(re)) {
        const k = unitKey(m[1] as string, m[2] as string)
        if (k) add.add(k)
      }
    }
  }
  if (only) for (const k of add) if (only.keys.has(k)) out.add(k)
  return out
}

/** The keys an extraction is restricted to, prepared by {@link wantedKeys}. */
export interface Wanted {
  readonly keys: ReadonlySet<string>
  /** Word pieces of the keys: every key a token yields is made of the token's pieces. */
  readonly pieces: ReadonlySet<string>
  /** A bit per hash bucket ({@link pieceHash}), set for each piece: a clear bit is no piece. */
  readonly pieceBits: Uint32Array
  readonly pieceMask: number
  /** Some key is a `line N`; some key is a number with a unit. */
  readonly lines: boolean
  readonly units: boolean
}

const PIECE_RE = /[A-Za-z0-9_$]+/g

export function wantedKeys(keys: ReadonlySet<string>): Wanted {
  const pieces = new Set<string>()
  let lines = false
  let units = false
  for (const k of keys) {
    for (const m of k.matchAll(PIECE_RE)) pieces.add(m[0])
    if (k.startsWith('line ')) lines = true
    else if (/^\d+(\.\d+)?[a-z%]+$/.test(k)) units = true
  }
  // About 16 buckets per piece, so few pieces of a long tool output are sliced out to be looked up.
  let size = 4096
  while (size < pieces.size * 16 && size < 1 << 24) size *= 2
  const pieceBits = new Uint32Array(size >>> 5)
  const pieceMask = size - 1
  for (const p of pieces) {
    const b = pieceHash(p, 0, p.length) & pieceMask
    pieceBits[b >>> 5] = (pieceBits[b >>> 5] as number) | (1 << (b & 31))
  }
  return { keys, pieces, pieceBits, pieceMask, lines, units }
}

/** FNV-1a over `s[start, end)`. */
function pieceHash(s: string, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * Whether the token `text[from, to)` can yield a key made of wanted pieces. Keys are built from the token's own pieces
 * (a path's basename and segments, a number without its unit), so a token none of whose pieces
 * is wanted yields nothing wanted. Thousands separators are the exception (`1,234` → `1234`).
 */
function mayYield(text: string, from: number, to: number, only: Wanted): boolean {
  // A token that is itself a piece is its own only piece: the piece loop below covers it.
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 44) return true // `,`
  const { pieceBits, pieceMask, pieces } = only
  let start = -1
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 0
    const word = isAlnum(c) || c === 95 || c === 36
    if (word && start < 0) start = i
    else if (!word && start >= 0) {
      const b = pieceHash(text, start, i) & pieceMask
      // Sliced and looked up only when the piece's bucket holds a wanted piece.
      if (
        ((pieceBits[b >>> 5] as number) & (1 << (b & 31))) !== 0 &&
        pieces.has(text.slice(start, i))
      )
        return true
      start = -1
    }
  }
  return false
}

/** Whether a key may be shown as evidence (not a stoplisted basename kept only for coverage). */
export function isEvidenceKey(key: string): boolean {
  return !STOP_TOKENS.has(key)
}

/**
 * Keys whose presence in the kept context means `key` is known there: a path is known when its
 * basename is (the agent can find `src/a/parse.ts` from `parse.ts` in a listing).
 */
export function coverKeys(key: string): readonly string[] {
  if (!key.includes('/') || key.includes('://')) return [key]
  const base = key.slice(key.lastIndexOf('/') + 1)
  return hasExtension(base) ? [key, base] : [key]
}
