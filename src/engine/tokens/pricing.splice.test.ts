import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BpeCounter, cachedCounter } from './index.ts'
import o200k from 'js-tiktoken/ranks/o200k_base'
import { pricePart, priceText, rememberTextPrice } from './pricing.ts'
import { priceSplice, priceSpliceTail } from './pricing-splice.ts'

const bpe = BpeCounter.fromRankData(o200k)
/** A fresh cache per check, so priceText below counts rather than reading what priceSplice left. */
const counter = () =>
  cachedCounter({
    id: 'o200k_base',
    exact: true,
    count: (t) => bpe.count(t),
    countSplice: (b, c, t) => bpe.countSplice(b, c, t),
    countSpliceTail: (b, c, t) => bpe.countSpliceTail(b, c, t),
  })

const B64 = 'QUJDRGVmZ2gxMjM0NTY3ODkw'
const units = [
  'word ',
  'Two ',
  '\n',
  '  ',
  '{"a": 1}',
  'é',
  B64,
  B64.repeat(40),
  B64.repeat(180),
  '[REDACTED_TEXT len=40 sha=x]',
]

describe('priceSplice', () => {
  it('prices a cut text exactly as priceText does (tokens and base64 labels)', () => {
    let labelled = 0
    const text = fc.array(fc.constantFrom(...units), { maxLength: 200 }).map((a) => a.join(''))
    fc.assert(
      fc.property(text, text, fc.nat(), (base, tail, at) => {
        const cut = at % (base.length + 1)
        const spliced = base.slice(0, cut) + tail
        const expected = priceText(spliced, counter())
        if (expected.approximate) labelled++
        const c = counter()
        expect(priceSplice(spliced, base, cut, c)).toEqual(expected)
        // What priceSplice left in the caches is the same figure.
        expect(priceText(spliced, c)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
    expect(labelled).toBeGreaterThan(10) // the base64 rule was met, not only plain counts
  })

  it('falls back to priceText for a counter without countSplice', () => {
    const words = {
      id: 'o200k_base' as const,
      exact: true,
      count: (t: string) => t.split(' ').length,
    }
    expect(priceSplice('a b c', 'a b x y', 4, words)).toEqual(priceText('a b c', words))
  })

  it('priceSpliceTail prices the cut of a base plus a tail exactly as priceText prices that text', () => {
    let labelled = 0
    const text = fc.array(fc.constantFrom(...units), { maxLength: 200 }).map((a) => a.join(''))
    fc.assert(
      fc.property(text, text, fc.nat(), (base, tail, at) => {
        const cut = at % (base.length + 2) // one past the end: the whole base
        const spliced = base.slice(0, cut) + tail
        const expected = priceText(spliced, counter())
        if (expected.approximate) labelled++
        const c = counter()
        expect(priceSpliceTail(base, cut, tail, c)).toEqual(expected)
        // A second cut of the same base reads its index and scan as they are now.
        const half = Math.floor(cut / 2)
        expect(priceSpliceTail(base, half, tail, c)).toEqual(
          priceText(base.slice(0, half) + tail, counter()),
        )
      }),
      { numRuns: 300 },
    )
    expect(labelled).toBeGreaterThan(10)
    const words = {
      id: 'o200k_base' as const,
      exact: true,
      count: (t: string) => t.split(' ').length,
    }
    expect(priceSpliceTail('a b x y', 4, 'c', words)).toEqual(priceText('a b c', words))
  })

  it('a remembered text price is what pricePart reads for that part and counter only', () => {
    const c = counter()
    const part = { kind: 'text' as const, text: 'some words to count' }
    const counted = pricePart(part, 'assistant', c, 'openai')
    const other = { kind: 'text' as const, text: 'some words to count' }
    rememberTextPrice(other, { tokens: 1234 }, c)
    // Kept per object and counter (a deliberately wrong figure shows it is read, and where).
    expect(pricePart(other, 'assistant', c, 'openai')).toBe(1234)
    expect(pricePart(other, 'assistant', counter(), 'openai')).toBe(counted)
    expect(pricePart(part, 'assistant', c, 'openai')).toBe(counted)
  })
})
