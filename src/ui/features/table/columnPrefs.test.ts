import { describe, expect, it } from 'vitest'
import { COLUMN_MAX, COLUMN_MIN, parseColumnSizes, parseVisibility } from './columnPrefs.ts'

describe('stored column visibility', () => {
  const known = ['index', 'kind', 'resource']

  it('keeps boolean entries of known columns only', () => {
    expect(parseVisibility('{"resource":false,"kind":true}', known)).toEqual({
      resource: false,
      kind: true,
    })
    expect(parseVisibility('{"gone":false,"index":"no"}', known)).toEqual({})
  })

  it('ignores missing, broken or odd values', () => {
    expect(parseVisibility(null, known)).toEqual({})
    expect(parseVisibility('{oops', known)).toEqual({})
    expect(parseVisibility('[false]', known)).toEqual({})
    expect(parseVisibility('null', known)).toEqual({})
  })
})

describe('stored column widths', () => {
  const known = ['tool', 'reason']

  it('keeps finite widths of known columns, clamped and rounded', () => {
    expect(parseColumnSizes('{"tool":180.6,"reason":99999,"gone":50}', known)).toEqual({
      tool: 181,
      reason: COLUMN_MAX,
    })
    expect(parseColumnSizes('{"tool":2}', known)).toEqual({ tool: COLUMN_MIN })
  })

  it('ignores missing, broken or odd values', () => {
    expect(parseColumnSizes(null, known)).toEqual({})
    expect(parseColumnSizes('{oops', known)).toEqual({})
    expect(parseColumnSizes('{"tool":"wide","reason":null}', known)).toEqual({})
    expect(parseColumnSizes('[1]', known)).toEqual({})
  })
})
