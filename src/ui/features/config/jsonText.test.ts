import { describe, expect, it } from 'vitest'
import { jsonErrorOffset, lineColumn, parseJson } from './jsonText.ts'

describe('JSON view parsing', () => {
  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a": [1, 2.5e3, true, null, "x\\n"]}')).toEqual({
      ok: true,
      value: { a: [1, 2500, true, null, 'x\n'] },
    })
  })

  it('points at the line and column where the text stops being JSON', () => {
    const text = '{\n  "a": 1,\n  "b": }\n'
    const result = parseJson(text)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result).toMatchObject({ line: 3, column: 8 })
      expect(result.message).not.toMatch(/position/)
    }
  })

  it('finds trailing commas, bad literals, junk after the value and early ends', () => {
    expect(jsonErrorOffset('[1,]')).toBe(3)
    expect(jsonErrorOffset('{"a": tru}')).toBe(9)
    expect(jsonErrorOffset('{} x')).toBe(3)
    expect(jsonErrorOffset('{"a": ')).toBe(6)
    expect(jsonErrorOffset('"abc')).toBe(4)
    expect(jsonErrorOffset('{"a": -}')).toBe(6)
    expect(jsonErrorOffset('{"a": 1}')).toBe(-1)
  })

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 })
    expect(lineColumn('', 0)).toEqual({ line: 1, column: 1 })
  })
})
