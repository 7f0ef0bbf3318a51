import { describe, expect, it } from 'vitest'
import { JsonDepthError, MAX_JSON_DEPTH, parseJson, parseJsonBounded, tooDeepAt } from './json.ts'

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth)

describe('depth-bounded JSON parsing', () => {
  it('finds the first opener past the limit, skipping strings (with escapes)', () => {
    expect(tooDeepAt('[[1]]', 2)).toBe(-1)
    expect(tooDeepAt('[[[1]]]', 2)).toBe(2)
    expect(tooDeepAt('["[[[[", "\\"[[[", [[1]]]', 2)).toBe(19)
    expect(tooDeepAt('{"a":{"b":{}}}', 2)).toBe(10)
    expect(tooDeepAt(nested(MAX_JSON_DEPTH))).toBe(-1)
    expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1))).toBe(MAX_JSON_DEPTH)
  })

  it('parseJson refuses too-deep values with a position, like a syntax error', () => {
    expect(parseJson('{"a":[1,2]}')).toEqual({ a: [1, 2] })
    const deep = `{"x": ${nested(6000)}}`
    expect(() => parseJson(deep)).toThrow(JsonDepthError)
    expect(() => parseJson(deep)).toThrow(/nesting deeper than 512 levels at position 517/)
    expect(() => parseJson('{"a":')).toThrow(SyntaxError)
  })

  it('parseJsonBounded keeps too-deep values as their exact JSON text, the rest as structure', () => {
    const inner = `[ ${nested(6000, '"x"')} ]`
    // `{` is level 1, then 511 arrays: `inner` opens level 513, one past the limit.
    const text = `{"before": 1, "deep": ${nested(MAX_JSON_DEPTH - 1, inner)}, "after": [2]}`
    const { value, deep } = parseJsonBounded(text)
    expect(deep).toEqual({ offset: text.indexOf(inner), count: 1, limit: MAX_JSON_DEPTH })
    const v = value as { before: number; deep: unknown; after: number[] }
    expect(v.before).toBe(1)
    expect(v.after).toEqual([2])
    let cur: unknown = v.deep
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) cur = (cur as unknown[])[0]
    expect(cur).toBe(inner)
    // The result is safe for every recursive consumer.
    expect(() => JSON.stringify(value)).not.toThrow()
    expect(() => structuredClone(value)).not.toThrow()
  })

  it('bounds several deep values and deep objects, in one linear pass', () => {
    const text = `[${nested(700)}, {"k": ${'{"a":'.repeat(900)}0${'}'.repeat(900)}}, ${nested(100_000)}]`
    const { value, deep } = parseJsonBounded(text)
    expect(deep?.count).toBe(3)
    expect(() => JSON.stringify(value)).not.toThrow()
    expect(parseJsonBounded('{"plain": true}')).toEqual({ value: { plain: true } })
    expect(() => parseJsonBounded('[[[')).toThrow(SyntaxError)
  })
})
