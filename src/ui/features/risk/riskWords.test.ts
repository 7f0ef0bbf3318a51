import { describe, expect, it } from 'vitest'
import { callsLaterWords, listWords, usedLaterWords } from './riskWords.ts'

describe('risk words', () => {
  it('lists with commas and a final "and"', () => {
    expect(listWords([])).toEqual([])
    expect(listWords(['a'])).toEqual(['a'])
    expect(listWords(['a', 'b'])).toEqual(['a', ' and ', 'b'])
    expect(listWords(['a', 'b', 'c']).join('')).toBe('a, b and c')
  })

  it('says when and how many', () => {
    expect(callsLaterWords(1)).toBe('in the next call')
    expect(callsLaterWords(3)).toBe('3 calls later')
    expect(usedLaterWords(0)).toBe('nothing removed was used later')
    expect(usedLaterWords(1)).toBe('1 removed group used later')
    expect(usedLaterWords(4)).toBe('4 removed groups used later')
  })
})
