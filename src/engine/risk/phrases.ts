import { STOP_WORDS } from './stoplist.ts'

/**
 * Phrases: several words that identify content when they come back verbatim — a quoted string,
 * an error message. Matched as a substring of normalised text (see `normalizeText`), never word
 * by word, so common words inside them are fine.
 */

/** A phrase: its normalised form (the match key) and how it read in the source. */
export interface Phrase {
  readonly key: string
  readonly display: string
}

/**
 * Lower case, punctuation to spaces (keeping `_ . / -` inside words), single spaces, padded with
 * one space each side so `includes(' ' + phrase + ' ')` matches whole words only.
 */
export function normalizeText(text: string): string {
  // One pass over the lower-cased text instead of four regex passes (it runs over every part of
  // the transcript once): words are runs of `[a-z0-9_./-]`, each without leading or trailing
  // `./-`, joined by single spaces. Same output as
  // `.replace(/[^a-z0-9_./-]+/g, ' ').replace(/(^| )[./-]+|[./-]+(?= |$)/g, '$1')
  //  .replace(/ +/g, ' ').trim()`.
  const lower = text.toLowerCase()
  const at = new Int32Array(3)
  let out = ' '
  for (let i = 0; nextWord(lower, i, at); i = at[2] as number) {
    const start = at[0] as number
    const end = at[1] as number
    if (end > start) out += out.length > 1 ? ` ${lower.slice(start, end)}` : lower.slice(start, end)
  }
  return `${out} `
}

/**
 * The next word of lower-cased `text` from `from` (a run of word characters, `./-` trimmed from
 * its edges, so it may come out empty): its bounds go to `at[0]`, `at[1]` and where the run ended
 * to `at[2]`. False when no word is left. Bounds in a reused array, not a new object per word:
 * the risk check scans every part of the transcript with it.
 */
export function nextWord(text: string, from: number, at: Int32Array): boolean {
  const n = text.length
  let i = from
  while (i < n && !isWordChar(text.charCodeAt(i))) i++
  if (i >= n) return false
  let start = i
  while (i < n && isWordChar(text.charCodeAt(i))) i++
  let end = i
  while (start < end && isEdgeChar(text.charCodeAt(start))) start++
  while (end > start && isEdgeChar(text.charCodeAt(end - 1))) end--
  at[0] = start
  at[1] = end
  at[2] = i
  return true
}

/** `[a-z0-9_./-]`: the characters of a word of normalised text. */
export const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 45 && c <= 57) || c === 95 // 45-57: `-` `.` `/` and digits
/** `.` `/` `-`: trimmed from both ends of a word. */
export const isEdgeChar = (c: number): boolean => c >= 45 && c <= 47

/** The words of a phrase that can identify it (≥ 3 letters, not a stop word). */
export function contentWords(key: string): string[] {
  return key.split(' ').filter((w) => w.length >= 3 && /[a-z]/.test(w) && !STOP_WORDS.has(w))
}

const QUOTED_RE = /(?<![\w])(["'`])([^"'`\n]{8,200}?)\1(?![\w])|“([^”\n]{8,200})”/g
const ERROR_RE =
  /\b(error|exception|failed|failure|fatal|panic|traceback|refused|denied|cannot|could not|unable to|not found|no such|invalid|timed out)\b/i
const ERROR_PREFIX_RE =
  /(?:\b[A-Z]\w*(?:Error|Exception)|\bError|\berror|\bERROR|\bfatal|\bFATAL|\bFAILED|\bpanic)\b\s*[:\]!]\s*(.+)$/

const MAX_PHRASE_WORDS = 20

function phraseOf(raw: string): Phrase | null {
  const norm = normalizeText(raw).trim()
  const words = norm.split(' ').slice(0, MAX_PHRASE_WORDS)
  const key = words.join(' ')
  if (words.length < 3 || key.length < 15 || contentWords(key).length < 2) return null
  const display = raw.trim().replace(/\s+/g, ' ')
  return { key, display: display.length > 80 ? `${display.slice(0, 79)}…` : display }
}

/**
 * Quoted phrases and error messages in `text` (each error line also yields its first clause, so
 * `cannot open config: permission denied` matches an agent quoting only `cannot open config`).
 */
export function extractPhrases(text: string): Phrase[] {
  const found = new Map<string, Phrase>()
  const add = (raw: string) => {
    const p = phraseOf(raw)
    if (p && !found.has(p.key)) found.set(p.key, p)
  }
  for (const m of text.matchAll(QUOTED_RE)) add((m[2] ?? m[3]) as string)
  for (const line of errorLines(text)) {
    const message = (ERROR_PREFIX_RE.exec(line)?.[1] ?? line).trim()
    add(message)
    const clause = message.split(/: |; | - | — |, /)[0] as string
    if (clause !== message) add(clause)
  }
  return [...found.values()]
}

/** The error words of `ERROR_RE`, searched for over a whole text. */
const ERROR_RE_ALL = new RegExp(ERROR_RE.source, 'gi')

/** `\n`, `\r`, U+2028, U+2029: where `^`/`$` match and `.` stops in a multiline regex. */
const isLineEnd = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029

/**
 * The lines of 10–400 characters holding an error word, in order: what
 * `text.matchAll(/^.{10,400}$/gm)` filtered by `ERROR_RE.test(line)` gives, without slicing out
 * every line of a long tool output (most have no error word). An error word never spans lines
 * and `\b` reads a line end as the non-word edge the isolated line has, so a match in the text
 * lies in exactly the lines the per-line test accepts.
 */
export function errorLines(text: string): string[] {
  const lines: string[] = []
  const re = ERROR_RE_ALL
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    let start = m.index
    while (start > 0 && !isLineEnd(text.charCodeAt(start - 1))) start--
    let end = m.index + m[0].length
    while (end < text.length && !isLineEnd(text.charCodeAt(end))) end++
    if (end - start >= 10 && end - start <= 400) lines.push(text.slice(start, end))
    // The rest of this line is done: go on from its end.
    re.lastIndex = end
  }
  return lines
}
