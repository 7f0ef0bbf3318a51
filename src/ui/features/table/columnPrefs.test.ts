import { describe, expect, it } from 'vitest'
import { parseVisibility } from './columnPrefs.ts'

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
