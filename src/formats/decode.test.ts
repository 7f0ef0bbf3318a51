import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeTranscript, decodeUtf8 } from './decode.ts'
import { importTranscript, importTranscriptBytes } from './index.ts'

/**
 * Issue 10 item 7: invalid UTF-8 became U+FFFD silently; empty and binary files were reported as
 * "unrecognised transcript". Now each has its own message, and invalid UTF-8 is a warning with
 * the byte offset of the first bad sequence.
 */
const enc = new TextEncoder()
const bytes = (...parts: (string | number[])[]) => {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p)))
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
const strict = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b)

describe('decodeUtf8 decodes exactly as TextDecoder, and says where it replaced', () => {
  it('matches TextDecoder on arbitrary bytes (the WHATWG replacement rules)', () => {
    const reference = new TextDecoder('utf-8', { ignoreBOM: true })
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 255 }),
            fc.constantFrom(0xc0, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0x80, 0xbf, 0xa0, 0x90),
          ),
          { maxLength: 60 },
        ),
        (raw) => {
          const b = Uint8Array.from(raw)
          const ours = decodeUtf8(b)
          expect(ours.text).toBe(reference.decode(b))
          let valid = true
          try {
            strict(b)
          } catch {
            valid = false
          }
          expect(ours.problems === null).toBe(valid)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('names the byte offset of the first bad sequence and counts them all', () => {
    const b = bytes('{"a":"é', [0xff], '", "b":"', [0xe2, 0x82], '"}')
    const { text, problems } = decodeUtf8(b)
    expect(problems).toEqual({ count: 2, firstByte: 8, firstChar: 7 })
    expect(text).toBe('{"a":"é\ufffd", "b":"\ufffd"}')
  })
})

describe('importing bytes', () => {
  const chat = (content: (string | number[])[]) =>
    bytes(
      '{"model":"gpt-4o","messages":[{"role":"user","content":"',
      ...content,
      '"},{"role":"assistant","content":"ok"}]}',
    )

  it('invalid UTF-8 is a warning with its byte offset; the transcript loads', () => {
    const b = chat(['caf', [0xe9], ' au lait'])
    const outcome = importTranscriptBytes(b, {}, strict)
    expect(outcome.result.ok).toBe(true)
    const w = outcome.result.warnings[0]
    const at = b.indexOf(0xe9)
    expect(w?.message).toMatch(new RegExp(`^invalid UTF-8 at byte offset ${at}: `))
    expect(w).toMatchObject({ line: 1, offset: at }) // ASCII before it: chars = bytes
    if (outcome.result.ok) {
      const first = outcome.result.conversation.messages[0]?.parts[0]
      expect(first?.kind === 'text' && first.text).toBe('caf\ufffd au lait')
    }
  })

  it('the same without a host decoder, and with a byte order mark', () => {
    const b = bytes([0xef, 0xbb, 0xbf], '\n', [0xc3])
    const d = decodeTranscript(b)
    expect(d).toMatchObject({ ok: true, text: '\n\ufffd' })
    if (d.ok) expect(d.warnings[0]).toMatchObject({ line: 2, offset: 1 })
    expect(d.ok && d.warnings[0]?.message).toMatch(/byte offset 4/)
  })

  it('valid files take the fast path and carry no warning', () => {
    const outcome = importTranscriptBytes(chat(['plain']), {}, strict)
    expect(outcome.result.warnings).toEqual([])
  })

  it.each([
    ['an empty file', new Uint8Array(0), /^empty file \(0 bytes\)/],
    ['a gzip file', Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0]), /gzip-compressed/],
    ['a zip archive', bytes('PK', [3, 4], 'xxxx'), /zip archive/],
    ['UTF-16 text', Uint8Array.from([0xff, 0xfe, 0x7b, 0, 0x7d, 0]), /UTF-16 text/],
    ['a binary file', bytes('{"messages"', [0], 'junk'), /binary file.*NUL byte at byte offset 11/],
  ])('%s is refused with its own message', (_what, b, message) => {
    const outcome = importTranscriptBytes(b, {}, strict)
    expect(outcome.result.ok).toBe(false)
    if (!outcome.result.ok) {
      expect(outcome.result.error.message).toMatch(message)
      expect(outcome.result.error.message).not.toMatch(/unrecognised/)
    }
  })

  it('a NUL byte anywhere is refused, not only near the start (a shorter output must not differ)', () => {
    const far = bytes('# aider chat started at 1\n\n#### hi\n\n', 'x'.repeat(100_000), [0], '\n')
    const outcome = importTranscriptBytes(far, {}, strict)
    expect(outcome.result.ok).toBe(false)
    if (!outcome.result.ok)
      expect(outcome.result.error.message).toMatch(/NUL byte at byte offset 100036/)
  })

  it('pasted text: empty, whitespace-only and binary get their own messages too', () => {
    const msg = (t: string) => {
      const r = importTranscript(t).result
      return r.ok ? 'ok' : r.error.message
    }
    expect(msg('')).toBe('empty input: nothing to import')
    expect(msg(' \n\t\n')).toMatch(/^empty input: only whitespace \(4 characters\)/)
    expect(msg('ab\u0000cd')).toMatch(
      /^binary data, not a text transcript \(NUL character at offset 2\)/,
    )
  })
})
