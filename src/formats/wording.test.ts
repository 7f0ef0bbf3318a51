import { describe, expect, it } from 'vitest'
import { importTranscript } from './index.ts'
import { describe as describeValue, keysOf } from './util.ts'

/** Issue 10 item 7: a missing field was described as "got a undefined". */
describe('describing what was found instead', () => {
  it('says a field is missing rather than "a undefined"', () => {
    expect(describeValue(undefined)).toBe('nothing (the field is missing)')
    expect(keysOf(undefined)).toBe('nothing (the field is missing)')
    expect(describeValue(null)).toBe('null')
    expect(describeValue(3)).toBe('a number')
  })

  it('in an importer warning', () => {
    const text = JSON.stringify({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }, { content: 'no role' }],
    })
    const all = JSON.stringify(importTranscript(text).result)
    expect(all).not.toMatch(/a undefined/)
    expect(all).toMatch(/got nothing \(the field is missing\)/)
  })
})
