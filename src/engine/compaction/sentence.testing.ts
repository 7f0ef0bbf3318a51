/**
 * Vitest equality for decisions (a setup file, vitest.config.ts): a decision's sentence may be the
 * function that writes it (sentence.ts), and two runs make two functions for the same sentence.
 * Two decisions are equal when every field is, the sentence compared as the text it writes
 * (`toMatchObject({ reason, sentence: '…' })` matches a written sentence too).
 */
import { expect } from 'vitest'
import { written, type Sentence } from './sentence.ts'

interface Said {
  readonly sentence: Sentence
  readonly reason: string
}

function isSaid(value: unknown): value is Said {
  if (typeof value !== 'object' || value === null) return false
  const s = (value as { sentence?: unknown }).sentence
  return (typeof s === 'string' || typeof s === 'function') && 'reason' in value
}

/** The decision with its sentence as text. */
function asText(d: Said): Said {
  return { ...d, sentence: written(d.sentence) }
}

expect.addEqualityTesters([
  function sameDecision(a: unknown, b: unknown, testers) {
    if (!isSaid(a) || !isSaid(b)) return undefined
    if (typeof a.sentence === 'string' && typeof b.sentence === 'string') return undefined
    // With the testers in use: `toMatchObject` still compares a subset.
    return this.equals(asText(a), asText(b), testers)
  },
])
