/**
 * Hand-written ASCII scanners equivalent to the o200k_base and cl100k_base split regexes.
 *
 * V8 runs the Unicode-property split regex at ~18 MB/s, which caps exact counting. For ASCII the
 * classes are trivial, so we decide each piece with a few table lookups. The moment a decision
 * would depend on a non-ASCII character, the scanner returns -1 and the caller lets the real regex
 * match that one piece; exactness is checked against js-tiktoken by property tests.
 */

// Character classes for codes < 128.
const UPPER = 1
const LOWER = 2
const DIGIT = 4
const SPACE = 8 // \s: \t \n \v \f \r and ' '
const NEWLINE = 16 // \r \n
const PUNCT = 32 // not \s, not a letter, not a digit

const CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) CLASS[c] = UPPER
  else if (c >= 97 && c <= 122) CLASS[c] = LOWER
  else if (c >= 48 && c <= 57) CLASS[c] = DIGIT
  else if (c === 10 || c === 13) CLASS[c] = SPACE | NEWLINE
  else if (c === 9 || c === 11 || c === 12 || c === 32) CLASS[c] = SPACE
  else CLASS[c] = PUNCT
}

const NON_ASCII = 128
const cls = (s: string, i: number): number => {
  const c = s.charCodeAt(i)
  return c < 128 ? (CLASS[c] as number) : NON_ASCII
}

/** End of a contraction ('s 't 're 've 'm 'll 'd, any case) starting at i, or i if none. */
function contraction(s: string, i: number): number {
  // Past the end charCodeAt is NaN, a double: V8 deopts the scanner on it (a bounds check is free).
  if (i >= s.length || s.charCodeAt(i) !== 39) return i
  const a = s.charCodeAt(i + 1) | 0x20
  if (a === 115 || a === 116 || a === 109 || a === 100) return i + 2 // s t m d
  const b = s.charCodeAt(i + 2) | 0x20
  if ((a === 114 || a === 118) && b === 101) return i + 3 // re ve
  if (a === 108 && b === 108) return i + 3 // ll
  return i
}

/** Whitespace pieces (the last three alternatives, shared by both patterns). */
function whitespace(s: string, i: number, n: number): number {
  let k = i
  let lastNewline = -1
  while (k < n) {
    const c = cls(s, k)
    if (c === NON_ASCII) return -1 // U+00A0, U+2028… are \s too: let the regex decide
    if (!(c & SPACE)) break
    if (c & NEWLINE) lastNewline = k
    k++
  }
  if (lastNewline !== -1) return lastNewline + 1 // \s*[\r\n]+
  if (k === n) return k // \s+(?!\S) at the end
  if (cls(s, k) === NON_ASCII) return -1
  return k - i >= 2 ? k - 1 : k // \s+(?!\S) leaves one space for the next piece; else \s+
}

/** End of the o200k_base piece starting at i, or -1 when non-ASCII text must go to the regex. */
export function scanO200k(s: string, i: number, n: number): number {
  const c0 = cls(s, i)
  if (c0 === NON_ASCII) return -1
  // [^\r\n\p{L}\p{N}]? [upper]* [lower]+ | … [upper]+ [lower]*, then an optional contraction.
  let j = i
  if (c0 & (SPACE | PUNCT) && !(c0 & NEWLINE)) {
    if (i + 1 < n) {
      const c1 = cls(s, i + 1)
      if (c1 === NON_ASCII) return -1
      if (c1 & (UPPER | LOWER)) j = i + 1
    }
  }
  if (j !== i || c0 & (UPPER | LOWER)) {
    let k = j
    while (k < n && cls(s, k) === UPPER) k++
    while (k < n && cls(s, k) === LOWER) k++
    if (k < n && cls(s, k) === NON_ASCII) return -1 // é, ñ, marks… extend the letter run
    return contraction(s, k)
  }
  if (c0 & DIGIT) {
    let k = i + 1
    while (k < n && k < i + 3 && cls(s, k) === DIGIT) k++
    if (k < n && k < i + 3 && cls(s, k) === NON_ASCII) return -1 // other \p{N} digits
    return k
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n/]*
  const p = c0 === SPACE && s.charCodeAt(i) === 32 ? i + 1 : i
  if (p < n) {
    const cp = cls(s, p)
    if (cp === NON_ASCII) return -1
    if (cp & PUNCT) {
      let k = p + 1
      for (;;) {
        if (k >= n) return k
        const c = cls(s, k)
        if (c === NON_ASCII) return -1
        if (!(c & PUNCT)) break
        k++
      }
      while (k < n && (cls(s, k) & NEWLINE || s.charCodeAt(k) === 47)) k++
      return k
    }
  }
  return c0 & SPACE ? whitespace(s, i, n) : -1
}

/** End of the cl100k_base piece starting at i, or -1 when non-ASCII text must go to the regex. */
export function scanCl100k(s: string, i: number, n: number): number {
  const c0 = cls(s, i)
  if (c0 === NON_ASCII) return -1
  const con = contraction(s, i)
  if (con !== i) return con
  // [^\r\n\p{L}\p{N}]?\p{L}+
  let j = -1
  if (c0 & (UPPER | LOWER)) j = i
  else if (c0 & (SPACE | PUNCT) && !(c0 & NEWLINE) && i + 1 < n) {
    const c1 = cls(s, i + 1)
    if (c1 === NON_ASCII) return -1
    if (c1 & (UPPER | LOWER)) j = i + 1
  }
  if (j !== -1) {
    let k = j
    while (k < n && cls(s, k) & (UPPER | LOWER)) k++
    if (k < n && cls(s, k) === NON_ASCII) return -1
    return k
  }
  if (c0 & DIGIT) {
    let k = i + 1
    while (k < n && k < i + 3 && cls(s, k) === DIGIT) k++
    if (k < n && k < i + 3 && cls(s, k) === NON_ASCII) return -1
    return k
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n]*
  const p = s.charCodeAt(i) === 32 ? i + 1 : i
  if (p < n) {
    const cp = cls(s, p)
    if (cp === NON_ASCII) return -1
    if (cp & PUNCT) {
      let k = p + 1
      for (;;) {
        if (k >= n) return k
        const c = cls(s, k)
        if (c === NON_ASCII) return -1
        if (!(c & PUNCT)) break
        k++
      }
      while (k < n && cls(s, k) & NEWLINE) k++
      return k
    }
  }
  return c0 & SPACE ? whitespace(s, i, n) : -1
}

export type Scanner = (s: string, i: number, n: number) => number

/** The split patterns these scanners reproduce, exactly as js-tiktoken's rank files spell them. */
const O200K_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
const CL100K_PATTERN =
  "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"

/** The ASCII scanner for a split pattern, or null (then the regex does all the work). */
export function scannerFor(patStr: string): Scanner | null {
  if (patStr === O200K_PATTERN) return scanO200k
  if (patStr === CL100K_PATTERN) return scanCl100k
  return null
}
