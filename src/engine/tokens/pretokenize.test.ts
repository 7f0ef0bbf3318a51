import fc from 'fast-check'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import o200k from 'js-tiktoken/ranks/o200k_base'
import { describe, expect, it } from 'vitest'
import { scannerFor } from './pretokenize.ts'

// ASCII weighted toward what the split patterns branch on, plus a few non-ASCII characters
// that force the scanner to hand over to the regex.
const units = [
  ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
  ...Array.from({ length: 16 }, () => ' '),
  "'",
  "'",
  '\n',
  '\r',
  '\t',
  '/',
  's',
  'S',
  'l',
  'L',
  'd',
  'r',
  'e',
  'v',
  'm',
  'A',
  'z',
  '1',
  '9',
  'é',
  'É',
  '\u00a0',
  '中',
  '²',
  '—',
  '\u0301',
]

describe.each([
  { name: 'o200k_base', pat: o200k.pat_str },
  { name: 'cl100k_base', pat: cl100k.pat_str },
])('ASCII scanner for $name', ({ pat }) => {
  const scan = scannerFor(pat)
  const re = new RegExp(pat, 'gu')

  it('exists for the shipped pattern', () => expect(scan).not.toBeNull())

  it('finds exactly the piece the regex finds wherever it decides', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 200 }), (s) => {
        let i = 0
        while (i < s.length) {
          re.lastIndex = i
          const m = re.exec(s)
          expect(m?.index).toBe(i)
          const regexEnd = i + (m?.[0].length ?? 0)
          const end = scan?.(s, i, s.length) ?? -1
          if (end !== -1) expect(end, `at ${i} in ${JSON.stringify(s)}`).toBe(regexEnd)
          i = regexEnd
        }
      }),
      { numRuns: 5000 },
    )
  })

  it('handles every contraction spelling and newline/slash tails', () => {
    for (const s of [
      "it's I'M they'Re we'VE you'll He'D don'T",
      'a =\n/\n/b',
      ' ;;\r\n\r\nx',
      '\t\t\tfoo',
      '  \n  ',
      'x  ',
    ]) {
      let i = 0
      while (i < s.length) {
        re.lastIndex = i
        const m = re.exec(s)
        const end = scan?.(s, i, s.length) ?? -1
        if (end !== -1) expect(end).toBe(i + (m?.[0].length ?? 0))
        i += m?.[0].length ?? 1
      }
    }
  })
})
