import { describe, expect, it } from 'vitest'
import { errorLines, normalizeText } from './phrases.ts'

/** The regex form `normalizeText` replaced (one pass is faster); the two must agree exactly. */
const byRegex = (text: string): string =>
  ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9_./-]+/g, ' ')
    .replace(/(^| )[./-]+|[./-]+(?= |$)/g, '$1')
    .replace(/ +/g, ' ')
    .trim()} `

describe('normalizeText', () => {
  it('matches the regex form on edge cases and random strings', () => {
    const cases = [
      '',
      ' ',
      '...',
      '-a-',
      'A.B..',
      ' ./x/ ',
      'İstanbul ß',
      'Error: cannot open "x.ts"',
    ]
    const alphabet = 'aZ09_./-  \n\t,;:"\'İßﬁ€x-..//--.a'
    let seed = 7
    for (let k = 0; k < 5_000; k++) {
      let s = ''
      for (let j = 0; j < k % 23; j++) {
        seed = (seed * 1103515245 + 12345) % 2147483648
        s += alphabet[seed % alphabet.length]
      }
      cases.push(s)
    }
    for (const c of cases) expect(normalizeText(c), JSON.stringify(c)).toBe(byRegex(c))
  })
})

describe('errorLines', () => {
  /** The per-line form it replaced: every line of 10–400 characters, then the error-word test. */
  const ERROR_WORD =
    /\b(error|exception|failed|failure|fatal|panic|traceback|refused|denied|cannot|could not|unable to|not found|no such|invalid|timed out)\b/i
  const byLine = (text: string): string[] =>
    [...text.matchAll(/^.{10,400}$/gm)].map((m) => m[0]).filter((l) => ERROR_WORD.test(l))

  it('matches the per-line form on edge cases and random texts', () => {
    const cases = [
      '',
      'error',
      'an error here\nand another error there',
      'x'.repeat(395) + ' error',
      'x'.repeat(396) + ' error',
      'short\r\nfailed to open file\r\n\r\nnot found at all\u2028Error: x y z\u2029timed out after',
      'ERRORS are not error_codes, but Error: is',
      'could\nnot open the thing: could not',
    ]
    const words = ['error', 'Error', 'FAILED', 'not', 'found', 'no such', 'x', 'err', 'or', '_']
    const seps = [' ', '\n', '\r', '\r\n', '\u2028', ':', '.', '', 'abcdefghij']
    let seed = 11
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let k = 0; k < 3_000; k++) {
      let s = ''
      for (let j = 0; j < 1 + next(40); j++)
        s += words[next(words.length)] + (seps[next(seps.length)] as string)
      cases.push(s)
    }
    for (const c of cases) expect(errorLines(c), JSON.stringify(c)).toEqual(byLine(c))
  })
})
