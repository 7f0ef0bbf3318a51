import { describe, expect, it } from 'vitest'
import type { Message } from '../model.ts'
import { imageDimensions, imageTokens } from './images.ts'
import { estimateCounter } from './index.ts'
import { base64Runs, modelFamily, priceMessage, priceText } from './pricing.ts'
import type { TextCounter } from './types.ts'

/** A counter that counts words, so expected figures are obvious in the assertions. */
const words: TextCounter = {
  id: 'o200k_base',
  exact: true,
  count: (t) => (t.trim() === '' ? 0 : t.trim().split(/\s+/).length),
}

function b64(bytes: number[]): string {
  return Buffer.from(Uint8Array.from(bytes)).toString('base64')
}

// Minimal image headers with known sizes (padding bytes after the header are irrelevant).
const PNG_800x600 = b64([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  0x03,
  0x20,
  0,
  0,
  0x02,
  0x58,
  8,
  6,
  0,
  0,
  0,
  ...new Array(16).fill(0),
])
const GIF_10x20 = b64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0, ...new Array(20).fill(0)])
const JPEG_640x480 = b64([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0,
  16,
  ...new Array(14).fill(0),
  0xff,
  0xc0,
  0,
  17,
  8,
  0x01,
  0xe0,
  0x02,
  0x80,
  3,
  ...new Array(20).fill(0),
])

describe('image pricing', () => {
  it('reads PNG, GIF and JPEG dimensions from the header', () => {
    expect(imageDimensions(PNG_800x600)).toEqual({ width: 800, height: 600 })
    expect(imageDimensions(GIF_10x20)).toEqual({ width: 10, height: 20 })
    expect(imageDimensions(JPEG_640x480)).toEqual({ width: 640, height: 480 })
    expect(imageDimensions('bm90IGFuIGltYWdlIGF0IGFsbCwganVzdCB0ZXh0')).toBeNull()
  })

  it('applies each provider formula', () => {
    expect(imageTokens('claude', { width: 800, height: 600 }).tokens).toBe(640)
    expect(imageTokens('claude', { width: 3136, height: 1568 }).tokens).toBe(
      Math.ceil((1568 * 784) / 750),
    )
    // 800×600 → shortest side 768 → 1024×768 → 2×2 tiles → 85 + 4×170.
    expect(imageTokens('openai', { width: 800, height: 600 }).tokens).toBe(765)
    expect(imageTokens('openai', { width: 800, height: 600 }, 'low').tokens).toBe(85)
    expect(imageTokens('gemini', { width: 300, height: 300 }).tokens).toBe(258)
    expect(imageTokens('gemini', { width: 1000, height: 700 }).tokens).toBe(516)
    expect(imageTokens('openai', null).rule).toMatch(/assumed/)
  })
})

describe('priceText', () => {
  it('counts ordinary text with the counter', () => {
    expect(priceText('one two three', words)).toEqual({ tokens: 3 })
  })

  it('prices a long embedded base64 run by rule and labels it', () => {
    const blob = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 7919) % 256)).toString(
      'base64',
    )
    const priced = priceText(`before ${blob} after`, words)
    expect(priced.approximate?.what).toMatch(/base64/)
    expect(priced.tokens).toBe(2 + Math.ceil(blob.length / 1.46))
  })

  it('does not mistake a long run of one letter for base64', () => {
    expect(base64Runs('a'.repeat(10_000))).toEqual([])
  })
})

describe('priceMessage', () => {
  it('splits a message into categories with framing', () => {
    const m: Message = {
      id: 'a',
      role: 'assistant',
      model: 'gpt-4o',
      parts: [
        {
          kind: 'reasoning',
          text: 'think hard',
          opaque: { label: 'encrypted reasoning', bytes: 400 },
        },
        { kind: 'text', text: 'let me look' },
        { kind: 'tool_call', callId: 'c', name: 'read', argsRaw: '{"path": "a.ts"}' },
      ],
    }
    const p = priceMessage(m, words)
    expect(p.byCategory).toEqual({
      framing: 6,
      reasoning: 2,
      opaque: 100,
      assistant: 3,
      tool_calls: 3,
    })
    expect(p.total).toBe(114)
    expect(p.approximate).toEqual([{ what: 'encrypted reasoning (bytes/4)', tokens: 100 }])
  })

  it('prices images inside tool results by the model family formula', () => {
    const m: Message = {
      id: 't',
      role: 'user',
      model: 'claude-sonnet-4-5',
      parts: [
        {
          kind: 'tool_result',
          callId: 'c',
          isError: false,
          content: [
            { kind: 'text', text: 'screenshot taken' },
            { kind: 'image', data: PNG_800x600, bytes: 45, mediaType: 'image/png' },
          ],
        },
      ],
    }
    const p = priceMessage(m, estimateCounter)
    expect(p.byCategory.images).toBe(640)
    expect(p.approximate[0]?.what).toMatch(/Anthropic/)
  })

  it('recognises model families', () => {
    expect(modelFamily('claude-opus-4-1')).toBe('claude')
    expect(modelFamily('gpt-5.2-codex')).toBe('openai')
    expect(modelFamily('o3-mini')).toBe('openai')
    expect(modelFamily('gemini-2.5-pro')).toBe('gemini')
    expect(modelFamily('deepseek-reasoner')).toBe('other')
  })
})
