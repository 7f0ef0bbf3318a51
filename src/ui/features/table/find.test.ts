import { describe, expect, it } from 'vitest'
import { findMatches, stepMatch } from './find.ts'
import type { QueryRow } from './query.ts'

const row = (id: string, tool: string, reason = ''): QueryRow => ({
  id,
  index: 0,
  kind: 'tool_call',
  role: 'assistant',
  tool,
  resource: '',
  status: 'kept',
  strategy: '',
  reason,
  detail: '',
  before: 1,
  after: 1,
  turn: 0,
})

describe('find in the list', () => {
  const rows = [
    row('a', 'Read'),
    row('b', 'Bash'),
    row('c', 'read_file'),
    row('d', 'Grep', 'stale read'),
  ]

  it('matches any shown field case-insensitively, in display order', () => {
    expect(findMatches(rows, 'READ', ['d', 'c', 'b', 'a'])).toEqual(['d', 'c', 'a'])
    expect(findMatches(rows, '  ', ['a'])).toEqual([])
    // A row the list does not show (filtered out) is no match.
    expect(findMatches(rows, 'read', ['a', 'b'])).toEqual(['a'])
  })

  it('cycles through matches both ways, wrapping', () => {
    const order = ['a', 'b', 'c', 'd']
    const m = ['a', 'c', 'd']
    expect(stepMatch(m, order, 'a', 1)).toBe('c')
    expect(stepMatch(m, order, 'd', 1)).toBe('a')
    expect(stepMatch(m, order, 'a', -1)).toBe('d')
    expect(stepMatch([], order, 'a', 1)).toBeNull()
  })

  it('continues from a selected row that is not a match', () => {
    const order = ['a', 'b', 'c', 'd']
    const m = ['a', 'c', 'd']
    expect(stepMatch(m, order, 'b', 1)).toBe('c')
    expect(stepMatch(m, order, 'b', -1)).toBe('a')
    expect(stepMatch(m, order, null, 1)).toBe('a')
    expect(stepMatch(m, order, null, -1)).toBe('d')
  })
})
