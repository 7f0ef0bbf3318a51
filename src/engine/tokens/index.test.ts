import { describe, expect, it } from 'vitest'
import { cachedCounter, estimateCounter, loadCounter } from './index.ts'
import type { TextCounter } from './types.ts'

describe('token counters', () => {
  it('caches counts by content so unchanged text is never re-tokenized', () => {
    let calls = 0
    const inner: TextCounter = { id: 'o200k_base', exact: true, count: (t) => (calls++, t.length) }
    const counter = cachedCounter(inner, 3)
    const text = 'a tool result that is long enough to be cached'
    expect(counter.count(text)).toBe(text.length)
    expect(counter.count(text)).toBe(text.length)
    expect(calls).toBe(1)
    // Clear-when-full keeps memory bounded and answers stay correct.
    for (const t of ['x'.repeat(20), 'y'.repeat(20), 'z'.repeat(20), text]) counter.count(t)
    expect(counter.count('w'.repeat(30))).toBe(30)
  })

  it('estimates chars/4 instantly and labels it inexact', () => {
    expect(estimateCounter.count('12345678')).toBe(2)
    expect(estimateCounter.exact).toBe(false)
  })

  it('loads each exact encoding once, lazily', async () => {
    const a = await loadCounter('o200k_base')
    const b = await loadCounter('o200k_base')
    expect(a).toBe(b)
    expect(a.exact).toBe(true)
    expect(a.count('hello world')).toBe(2)
    expect((await loadCounter('cl100k_base')).count('<|endoftext|>')).toBe(7)
  })
})
