import { describe, expect, it } from 'vitest'
import type { WireMessage, WirePart } from '../../../store/index.ts'
import { alignParts, diffMessages, lineDiff, nextLimit, FIRST_LIMIT } from './diffModel.ts'

const part = (kind: WirePart['kind'], text: string, replaced?: boolean): WirePart => ({
  kind,
  label: '',
  text,
  chars: text.length,
  truncated: false,
  tokens: Math.ceil(text.length / 4),
  ...(replaced ? { replaced } : {}),
})

const message = (id: string, parts: WirePart[]): WireMessage => ({
  id,
  index: 0,
  role: 'assistant',
  parts,
  tokens: parts.reduce((a, p) => a + p.tokens, 3),
  raw: '{}',
  rawChars: 2,
})

describe('alignParts', () => {
  it('pairs unchanged, replaced and removed parts in order', () => {
    const think = part('reasoning', 'hmm')
    const call = part('tool_call', '{"path":"a"}')
    const result = part('tool_result', 'long output')
    const stub = part('tool_result', '[stub]', true)
    const diff = alignParts([think, call, result], [call, stub])
    expect(diff.map((d) => d.kind)).toEqual(['removed', 'unchanged', 'replaced'])
    const replaced = diff[2]
    if (replaced?.kind !== 'replaced') throw new Error('expected a replaced part')
    expect(replaced.before.text).toBe('long output')
    expect(replaced.after.text).toBe('[stub]')
  })

  it('reports trailing removals and unmatched projected parts', () => {
    expect(
      alignParts([part('text', 'a'), part('text', 'b')], [part('text', 'a')]).map((d) => d.kind),
    ).toEqual(['unchanged', 'removed'])
    expect(alignParts([part('text', 'a')], [part('image', 'x')]).map((d) => d.kind)).toEqual([
      'added',
      'removed',
    ])
  })
})

describe('diffMessages', () => {
  const a = message('m1', [part('text', 'hello')])
  const b = message('m2', [part('tool_result', 'out')])

  it('is null before any run', () => {
    expect(diffMessages([a], null)).toBeNull()
  })

  it('marks messages missing from the projection as removed, others by their parts', () => {
    const d = diffMessages([a, b], [a]) ?? []
    expect(d.map((m) => m.status)).toEqual(['unchanged', 'removed'])
    expect(d[1]?.parts.map((p) => p.kind)).toEqual(['removed'])
    const stubbed = message('m2', [part('tool_result', '[cleared]', true)])
    expect(diffMessages([a, b], [a, stubbed])?.map((m) => m.status)).toEqual([
      'unchanged',
      'changed',
    ])
  })
})

describe('lineDiff', () => {
  it('keeps the common head and tail and marks the middle', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nX\nd')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'del', text: 'c' },
      { op: 'add', text: 'X' },
      { op: 'same', text: 'd' },
    ])
  })

  it('finds common lines inside the changed middle', () => {
    const ops = lineDiff('1\nkeep\n2', 'x\nkeep\ny').map((l) => `${l.op}:${l.text}`)
    expect(ops).toEqual(['del:1', 'add:x', 'same:keep', 'del:2', 'add:y'])
  })

  it('handles identical and empty texts', () => {
    expect(lineDiff('same', 'same')).toEqual([{ op: 'same', text: 'same' }])
    expect(lineDiff('', 'new')).toEqual([
      { op: 'del', text: '' },
      { op: 'add', text: 'new' },
    ])
  })

  it('falls back to remove-all/add-all when the middle is huge', () => {
    const big = (tag: string) => Array.from({ length: 1500 }, (_, i) => `${tag}${i}`).join('\n')
    const d = lineDiff(big('a'), big('b'))
    expect(d).toHaveLength(3000)
    expect(d[0]?.op).toBe('del')
    expect(d.at(-1)?.op).toBe('add')
  })
})

describe('nextLimit', () => {
  it('grows tenfold, then asks for everything', () => {
    expect(nextLimit(FIRST_LIMIT)).toBe(40_000)
    expect(nextLimit(400_000)).toBe(Number.POSITIVE_INFINITY)
  })
})
