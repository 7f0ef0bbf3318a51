import { describe, expect, it } from 'vitest'
import { cycle, edgeRow, stepRow } from './navigation.ts'

const IDS = ['a', 'b', 'c']

describe('row navigation', () => {
  it('steps through rows in display order and stops at the ends', () => {
    expect(stepRow(IDS, 'a', 1)).toBe('b')
    expect(stepRow(IDS, 'b', -1)).toBe('a')
    expect(stepRow(IDS, 'c', 1)).toBe('c')
    expect(stepRow(IDS, 'a', -1)).toBe('a')
  })
  it('starts at the first row going down, the last going up', () => {
    expect(stepRow(IDS, null, 1)).toBe('a')
    expect(stepRow(IDS, null, -1)).toBe('c')
    expect(stepRow(IDS, 'filtered-out', 1)).toBe('a')
  })
  it('has nothing to select in an empty table', () => {
    expect(stepRow([], null, 1)).toBeNull()
    expect(edgeRow([], 'last')).toBeNull()
  })
  it('finds the edges', () => {
    expect(edgeRow(IDS, 'first')).toBe('a')
    expect(edgeRow(IDS, 'last')).toBe('c')
  })
  it('cycles through a list both ways', () => {
    expect(cycle(IDS, 'c', 1)).toBe('a')
    expect(cycle(IDS, 'a', -1)).toBe('c')
    expect(cycle(IDS, 'b', 1)).toBe('c')
  })
})
