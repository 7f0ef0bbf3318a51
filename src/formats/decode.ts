import type { ParseWarning } from './types.ts'
import { lineOfOffset, warning } from './util.ts'

/**
 * From file bytes to transcript text (issue 10): invalid UTF-8 used to become U+FFFD silently,
 * and empty or binary files were "unrecognised transcripts". Here each gets its own message:
 * invalid UTF-8 is a warning with the byte offset of the first bad sequence (the text still
 * loads, with U+FFFD in place of each bad sequence, as every browser decodes it); an empty file
 * and a binary file (NUL bytes, a compressed archive, UTF-16) are errors that say what they are.
 */

/** What decoding found wrong, by byte offset into the input and character offset into the text. */
export interface Utf8Problems {
  /** Bad sequences, each replaced by one U+FFFD (WHATWG "maximal subpart" rule). */
  readonly count: number
  /** Byte offset of the first bad sequence. */
  readonly firstByte: number
  /** Character offset of its U+FFFD in the decoded text. */
  readonly firstChar: number
}

/**
 * Decode UTF-8 exactly as `TextDecoder` does (WHATWG algorithm, U+FFFD per maximal subpart, a
 * leading BOM kept for `sniff` to drop), and say where the input was not valid UTF-8. Pure TS: the
 * engine layer has no DOM, so no `TextDecoder` here. Linear; chunked `fromCharCode`.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; problems: Utf8Problems | null } {
  const parts: string[] = []
  let units: number[] = []
  let count = 0
  let firstByte = -1
  let firstChar = -1
  let written = 0 // UTF-16 units emitted so far (parts + units)
  let needed = 0
  let seen = 0
  let cp = 0
  let lower = 0x80
  let upper = 0xbf
  let seqStart = 0
  const emit = (u: number) => {
    units.push(u)
    written++
    if (units.length >= 8192) {
      // eslint-disable-next-line no-restricted-syntax -- bounded: at most 8193 arguments
      parts.push(String.fromCharCode(...units))
      units = []
    }
  }
  const bad = (at: number) => {
    if (count === 0) {
      firstByte = at
      firstChar = written
    }
    count++
    emit(0xfffd)
  }
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    if (needed === 0) {
      if (b <= 0x7f) emit(b)
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1
        cp = b & 0x1f
        seqStart = i
      } else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0
        if (b === 0xed) upper = 0x9f
        needed = 2
        cp = b & 0x0f
        seqStart = i
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90
        if (b === 0xf4) upper = 0x8f
        needed = 3
        cp = b & 0x07
        seqStart = i
      } else bad(i)
      continue
    }
    if (b < lower || b > upper) {
      // The sequence broke off: one U+FFFD for what was seen, then read this byte afresh.
      needed = seen = cp = 0
      lower = 0x80
      upper = 0xbf
      bad(seqStart)
      i--
      continue
    }
    lower = 0x80
    upper = 0xbf
    cp = (cp << 6) | (b & 0x3f)
    if (++seen === needed) {
      if (cp > 0xffff) {
        const v = cp - 0x10000
        emit(0xd800 + (v >> 10))
        emit(0xdc00 + (v & 0x3ff))
      } else emit(cp)
      needed = seen = cp = 0
    }
  }
  if (needed !== 0) bad(seqStart)
  // eslint-disable-next-line no-restricted-syntax -- bounded: fewer than 8193 arguments
  parts.push(String.fromCharCode(...units))
  return {
    text: parts.join(''),
    problems: count > 0 ? { count, firstByte, firstChar } : null,
  }
}

/** Character offsets everywhere are into the text after its byte order mark (as `sniff` reads it). */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Why bytes are not a text transcript at all, or null when they may be one. */
export function notText(bytes: Uint8Array): { offset: number; message: string } | null {
  if (bytes.length === 0) return { offset: 0, message: 'empty file (0 bytes): nothing to import' }
  const b = (i: number) => bytes[i] as number
  if (bytes.length >= 2 && b(0) === 0x1f && b(1) === 0x8b)
    return { offset: 0, message: 'a gzip-compressed file, not a transcript: decompress it first' }
  if (bytes.length >= 4 && b(0) === 0x50 && b(1) === 0x4b && b(2) === 0x03 && b(3) === 0x04)
    return { offset: 0, message: 'a zip archive, not a transcript: extract the transcript from it' }
  if (bytes.length >= 2 && ((b(0) === 0xff && b(1) === 0xfe) || (b(0) === 0xfe && b(1) === 0xff)))
    return {
      offset: 0,
      message: 'UTF-16 text (byte order mark at offset 0): save the transcript as UTF-8',
    }
  // Text transcripts (JSON, JSONL, Markdown) never hold a NUL byte: JSON escapes it as \u0000.
  // The whole input is checked (a native scan), not a prefix: a rule that depended on where the
  // byte sits would refuse a compacted output (shorter, the byte nearer the start) of an input
  // it accepted.
  const nul = bytes.indexOf(0)
  if (nul >= 0)
    return {
      offset: nul,
      message: `a binary file, not a text transcript (NUL byte at byte offset ${nul})`,
    }
  return null
}

/**
 * The same checks on text that is already decoded (pasted, or read by the host). `bytesChecked`:
 * the text was decoded from bytes that `notText` accepted — not empty and no NUL byte, so no
 * U+0000 either (a decoder only makes one from a 0x00 byte) — and only the whitespace check is
 * left: the NUL scan of a 200 MB text was 0.2 s of the CLI's import.
 */
export function notTextString(
  text: string,
  bytesChecked = false,
): { offset: number; message: string } | null {
  if (text.length === 0) return { offset: 0, message: 'empty input: nothing to import' }
  if (!/\S/.test(text))
    // stops at the first non-space: no copy of a large input
    return {
      offset: 0,
      message: `empty input: only whitespace (${text.length} characters), nothing to import`,
    }
  if (bytesChecked) return null
  const nul = text.indexOf('\u0000')
  if (nul >= 0)
    return {
      offset: nul,
      message: `binary data, not a text transcript (NUL character at offset ${nul})`,
    }
  return null
}

/**
 * Decode file bytes to text for `importTranscript`. `strict` is the host's fast validating
 * decoder (`new TextDecoder('utf-8', {fatal: true})`): it handles the common valid file at native
 * speed; only when it throws does the slower decoder here run, to say where the input is broken.
 */
export function decodeTranscript(
  bytes: Uint8Array,
  strict?: (bytes: Uint8Array) => string,
):
  | { readonly ok: true; readonly text: string; readonly warnings: readonly ParseWarning[] }
  | { readonly ok: false; readonly offset: number; readonly message: string } {
  const refused = notText(bytes)
  if (refused) return { ok: false, ...refused }
  if (strict) {
    try {
      return { ok: true, text: withoutBom(strict(bytes)), warnings: [] }
    } catch {
      // invalid UTF-8: decode again below, noting where
    }
  }
  const decoded = decodeUtf8(bytes)
  const bom = decoded.text.charCodeAt(0) === 0xfeff ? 1 : 0
  const text = decoded.text.slice(bom)
  const problems = decoded.problems && {
    ...decoded.problems,
    firstChar: decoded.problems.firstChar - bom,
  }
  if (!problems) return { ok: true, text, warnings: [] }
  const more = problems.count > 1 ? ` (and ${problems.count - 1} more invalid sequence(s))` : ''
  return {
    ok: true,
    text,
    warnings: [
      warning(
        lineOfOffset(text, problems.firstChar),
        problems.firstChar,
        `invalid UTF-8 at byte offset ${problems.firstByte}${more}: each invalid sequence was replaced by U+FFFD (�); the rest loads as usual`,
      ),
    ],
  }
}
