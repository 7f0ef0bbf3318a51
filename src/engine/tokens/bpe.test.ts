import fc from 'fast-check'
import { encode as gptO200k } from 'gpt-tokenizer/encoding/o200k_base'
import { encode as gptCl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import o200k from 'js-tiktoken/ranks/o200k_base'
import { describe, expect, it } from 'vitest'
import { BpeCounter } from './bpe.ts'

/**
 * A few characters that end pre-tokeniser pieces early or late, so long whitespace runs,
 * contractions and letter runs meet a splice's cut often.
 */
const PIECE_EDGES = [
  'x',
  'Ab',
  "'",
  'l',
  's',
  ' ',
  ' ',
  '\n',
  '\n',
  '\t',
  '1',
  '.',
  'é',
  '\u00a0',
  '😀',
]

const encodings = [
  { name: 'o200k_base', data: o200k, other: gptO200k },
  { name: 'cl100k_base', data: cl100k, other: gptCl100k },
] as const

// Characters chosen to hit every branch of both split patterns: cases, contractions, digits,
// punctuation runs, CR/LF mixes, non-Latin letters, combining marks, astral emoji, lone surrogates.
const alphabet = [
  'a',
  'b',
  'Z',
  'Q',
  'é',
  'ß',
  "'",
  "'s",
  "'LL",
  '0',
  '7',
  '42',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n\n',
  '.',
  ',',
  '/',
  '{',
  '}',
  '"',
  '=',
  '->',
  '中',
  '文',
  'ア',
  '한',
  'д',
  'ب',
  '\u0301',
  '😀',
  '👍🏽',
  '\ud800',
  '\udc00',
  '<|endoftext|>',
  '<|endofprompt|>',
  '<|fim_prefix|>',
  'function',
  'The',
  ' the',
]

// Every ASCII code, weighted toward the characters the split patterns care about.
const asciiUnits = [
  ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
  ...Array.from({ length: 20 }, () => ' '),
  "'",
  "'",
  '\n',
  '\r',
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
  't',
  'A',
  'z',
  '1',
  '9',
  'é',
  '\u00a0',
  '中',
  '²',
]

describe.each(encodings)('BpeCounter $name', ({ data, other }) => {
  const ours = BpeCounter.fromRankData(data)
  const heapOnly = BpeCounter.fromRankData(data, { smallPiece: 1 })
  const regexOnly = BpeCounter.fromRankData(data, { regexOnly: true })
  const everyBoundary = BpeCounter.fromRankData(data, { spliceSpacing: 1 })
  // Every piece one token: a count that differs whenever a splice splits into other pieces
  // (BPE counts often agree across different splits, which would hide a wrong resume point).
  const pieces = BpeCounter.fromRankData(data, { spliceSpacing: 1 })
  Object.defineProperty(pieces, 'countCached', { value: () => 1 })
  // count() splicing texts onto earlier ones with the same start, from 16 characters on.
  const autoPieces = BpeCounter.fromRankData(data, { spliceSpacing: 1, longText: 16 })
  Object.defineProperty(autoPieces, 'countCached', { value: () => 1 })
  const whole = BpeCounter.fromRankData(data, { longText: Infinity })
  const wholePieces = BpeCounter.fromRankData(data, { longText: Infinity })
  Object.defineProperty(wholePieces, 'countCached', { value: () => 1 })
  const reference = new Tiktoken(data)
  const ref = (s: string) => reference.encode(s, [], []).length

  it('matches js-tiktoken on hand-picked text, including special-token strings', () => {
    for (const s of [
      '',
      'hello world',
      'Say <|endoftext|> and <|endofprompt|> literally',
      "I'm sure they'LL say it's fine",
      'const x = { "a": [1, 2, 3] }\n\n\tif (x) return 0;\r\n',
      '日本語のテキストです。',
      '😀😃 emoji \ud800 lone surrogate',
      'x'.repeat(3000),
      ' '.repeat(1500) + 'y',
    ]) {
      expect(ours.count(s), JSON.stringify(s.slice(0, 40))).toBe(ref(s))
    }
  })

  it('matches js-tiktoken on random mixed text, through both merge paths', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 120 }), (chunks) => {
        const s = chunks.join('')
        const expected = ref(s)
        expect(ours.count(s)).toBe(expected)
        expect(heapOnly.count(s)).toBe(expected)
        expect(regexOnly.count(s)).toBe(expected)
      }),
      { numRuns: 400 },
    )
  })

  it('splits ASCII exactly like the regex (scanner vs regex on random ASCII)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...asciiUnits), maxLength: 300 }), (s) => {
        expect(ours.count(s)).toBe(regexOnly.count(s))
      }),
      { numRuns: 3000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...asciiUnits), maxLength: 80 }), (s) => {
        expect(ours.count(s)).toBe(ref(s))
      }),
      { numRuns: 300 },
    )
  })

  it('matches js-tiktoken on arbitrary unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(ours.count(s)).toBe(ref(s))
      }),
      { numRuns: 300 },
    )
  })

  it('counts long single-class runs exactly (checked against gpt-tokenizer)', () => {
    // js-tiktoken needs ~16 s for 10k identical letters; gpt-tokenizer is exact and faster.
    for (const s of [
      'a'.repeat(10_000),
      ' '.repeat(10_000),
      '中'.repeat(5_000),
      '9'.repeat(10_000),
      '=-'.repeat(5_000),
    ]) {
      expect(ours.count(s)).toBe(other(s, { disallowedSpecial: new Set() }).length)
    }
  })

  it('counts a spliced text exactly like the whole text (countSplice)', () => {
    // Every kind of boundary near the cut: runs of spaces and newlines, contractions split by
    // the cut, letters, digits, non-ASCII letters and spaces, astral characters, lone surrogates.
    const units = [
      ...alphabet,
      ...asciiUnits,
      ...[' '.repeat(9), '\n'.repeat(3), ' \n  ', '\t'.repeat(12), '\r\n   ', 'abcdefghij'],
      ...['\u00a0', '\u2028', "'l", 'l', 'e', "'r", 'x', 'y', 'Zz', '\n', '\n', ' ', ' ', ' '],
    ]
    const piece = fc.array(fc.constantFrom(...units), { maxLength: 300 }).map((a) => a.join(''))
    fc.assert(
      fc.property(piece, piece, piece, fc.nat(), (head, rest, tail, at) => {
        const base = head + rest
        const cut = base.length === 0 ? 0 : at % (base.length + 1)
        const text = base.slice(0, cut) + tail
        expect(ours.countSplice(base, cut, text)).toBe(ours.count(text))
        expect(everyBoundary.countSplice(base, cut, text)).toBe(ours.count(text))
        // The same text given as the base's cut and a tail (never built by the counter).
        expect(ours.countSpliceTail(base, cut, tail)).toBe(ours.count(text))
        expect(everyBoundary.countSpliceTail(base, cut, tail)).toBe(ours.count(text))
        // Again with the base's index built (and extended) by the first call.
        const cut2 = Math.floor(cut / 2)
        const text2 = base.slice(0, cut2) + tail
        expect(ours.countSplice(base, cut2, text2)).toBe(ours.count(text2))
        expect(ours.countSpliceTail(base, cut2, tail)).toBe(ours.count(text2))
        expect(ours.countSplice(base, cut, text)).toBe(ours.count(text))
      }),
      { numRuns: 1000 },
    )
    // Every cut of shorter bases: a cut right after each boundary is where a wrong resume shows.
    const short = fc.array(fc.constantFrom(...units), { maxLength: 60 }).map((a) => a.join(''))
    fc.assert(
      fc.property(short, short, (base, tail) => {
        for (let cut = 0; cut <= base.length; cut++) {
          const text = base.slice(0, cut) + tail
          expect(everyBoundary.countSplice(base, cut, text)).toBe(ours.count(text))
          expect(pieces.countSplice(base, cut, text)).toBe(pieces.count(text))
          expect(everyBoundary.countSpliceTail(base, cut, tail)).toBe(ours.count(text))
          expect(pieces.countSpliceTail(base, cut, tail)).toBe(pieces.count(text))
        }
      }),
      { numRuns: 300 },
    )
    const dense = fc
      .array(fc.constantFrom(...PIECE_EDGES), { maxLength: 50 })
      .map((a) => a.join(''))
    fc.assert(
      fc.property(dense, dense, (base, tail) => {
        for (let cut = 0; cut <= base.length; cut++) {
          const text = base.slice(0, cut) + tail
          expect(pieces.countSplice(base, cut, text)).toBe(pieces.count(text))
          expect(pieces.countSpliceTail(base, cut, tail)).toBe(pieces.count(text))
        }
      }),
      { numRuns: 2000 },
    )
    expect(pieces.countSplice('x\n' + ' '.repeat(9) + 'y', 10, 'x\n' + ' '.repeat(8) + '\n')).toBe(
      2,
    )
  })

  it('counts long texts that start like earlier ones exactly (count splices on its own)', () => {
    const dense = fc
      .array(fc.constantFrom(...PIECE_EDGES), { maxLength: 400 })
      .map((a) => a.join(''))
    const start = 'a shared start of more than the key length, '.repeat(4)
    fc.assert(
      fc.property(dense, dense, fc.nat(), (rest, tail, at) => {
        const base = start + rest
        expect(autoPieces.count(base)).toBe(wholePieces.count(base))
        for (const cut of [at % (base.length + 1), base.length - 1, base.length - 9]) {
          const text = base.slice(0, Math.max(0, cut)) + tail
          expect(autoPieces.count(text)).toBe(wholePieces.count(text))
        }
      }),
      { numRuns: 1000 },
    )
    const big = ('words and more words, ' + 'line\n'.repeat(3)).repeat(200)
    expect(ours.count(big)).toBe(whole.count(big))
    for (const cut of [5000, 4001, 2500]) {
      const text = `${big.slice(0, cut)}\n\n[Truncated: ${big.length} chars total, showing first ${cut}]`
      expect(ours.count(text)).toBe(whole.count(text))
    }
  })

  it('counts a spliced text whose prefix differs from the base as a whole text', () => {
    const base = 'alpha beta gamma delta '.repeat(20)
    const text = 'ALPHA' + base.slice(5, 300) + ' and more'
    expect(ours.countSplice(base, 300, text)).toBe(ours.count(text))
  })

  it('gives the same count twice (the memo never changes answers)', () => {
    const s = 'repeat repeat repeat '.repeat(50)
    expect(ours.count(s)).toBe(ours.count(s))
  })
})
