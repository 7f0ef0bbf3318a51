import { describe, expect, it } from 'vitest'
import type { ToolResultPart } from '../../model.ts'
import { stubPart } from './stub.ts'

const result = (text: string): ToolResultPart => ({
  kind: 'tool_result',
  callId: 'c1',
  content: [{ kind: 'text', text }],
  isError: false,
})

describe('stubPart', () => {
  it('gives back the same object for the same result and text, so caches by identity hold', () => {
    const part = result('x'.repeat(2_000))
    const first = stubPart(part, '[COMPACTED] a.ts (2000 bytes)')
    expect(first).not.toBe(part)
    expect(first).toEqual({
      ...part,
      content: [{ kind: 'text', text: '[COMPACTED] a.ts (2000 bytes)' }],
    })
    expect(stubPart(part, '[COMPACTED] a.ts (2000 bytes)')).toBe(first)
  })

  it('makes a new part when the text differs, or for another result with the same text', () => {
    const part = result('y'.repeat(500))
    const a = stubPart(part, 'stub A')
    const b = stubPart(part, 'stub B')
    expect(b).not.toBe(a)
    expect(b.content).toEqual([{ kind: 'text', text: 'stub B' }])
    const other = result('y'.repeat(500))
    expect(stubPart(other, 'stub B')).not.toBe(b)
    expect(part.content).toEqual([{ kind: 'text', text: 'y'.repeat(500) }])
  })
})
