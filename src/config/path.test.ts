import { describe, expect, it } from 'vitest'
import { getIn, isWithin, listAt, moveItem, pathText, removeItem, setIn } from './path.ts'

describe('config paths', () => {
  it('formats paths the way validation issues name them', () => {
    expect(pathText(['pipeline', 2, 'params', 'keep'])).toBe('pipeline[2].params.keep')
    expect(pathText(['window', 'contextTokens'])).toBe('window.contextTokens')
    expect(pathText([])).toBe('')
  })

  it('tells enclosing paths apart from mere prefixes', () => {
    expect(isWithin('pipeline[2].params.keep', 'pipeline[2]')).toBe(true)
    expect(isWithin('pipeline[2]', 'pipeline[2]')).toBe(true)
    expect(isWithin('pipeline[21].params', 'pipeline[2]')).toBe(false)
    expect(isWithin('window.buffer', 'window.buf')).toBe(false)
    expect(isWithin('anything', '')).toBe(true)
  })

  it('reads values and answers undefined for paths that lead nowhere', () => {
    const config = { pipeline: [{ params: { keep: 3 } }] }
    expect(getIn(config, ['pipeline', 0, 'params', 'keep'])).toBe(3)
    expect(getIn(config, ['pipeline', 4, 'params'])).toBeUndefined()
    expect(getIn(config, ['pipeline', 'x'])).toBeUndefined()
    expect(listAt(config, ['pipeline'])).toHaveLength(1)
    expect(listAt(config, ['window'])).toEqual([])
  })

  it('sets immutably, sharing what did not change', () => {
    const config = { window: { contextTokens: 1 }, pipeline: [{ a: 1 }, { b: 2 }] }
    const next = setIn(config, ['pipeline', 1, 'b'], 5) as typeof config
    expect(next.pipeline[1]).toEqual({ b: 5 })
    expect(next.pipeline[0]).toBe(config.pipeline[0])
    expect(next.window).toBe(config.window)
    expect(config.pipeline[1]).toEqual({ b: 2 })
  })

  it('creates missing containers and removes keys set to undefined', () => {
    expect(setIn({}, ['fallback', 'target', 'under'], 0.5)).toEqual({
      fallback: { target: { under: 0.5 } },
    })
    expect(setIn({ a: 1, b: 2 }, ['a'], undefined)).toEqual({ b: 2 })
  })

  it('moves and removes list items', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b'])
    expect(moveItem(['a', 'b'], 1, 5)).toEqual(['a', 'b'])
    expect(removeItem(['a', 'b', 'c'], 1)).toEqual(['a', 'c'])
  })
})
