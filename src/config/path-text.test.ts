import { describe, expect, it } from 'vitest'
import { pathText, getAtPath, parsePath, setNumberAtPath } from './path.ts'

const config = {
  window: { contextTokens: 2000, reservedOutput: 100 },
  pipeline: [
    { strategy: 'a', params: { keep: 3, off: null, name: 'x' } },
    { strategy: 'b', params: { keep: 8 }, trigger: { conditions: [{ kind: 'tokens', over: 50 }] } },
  ],
}

describe('config paths', () => {
  it('parses dot and bracket paths and formats them back', () => {
    expect(parsePath('pipeline[1].params.keep')).toEqual(['pipeline', 1, 'params', 'keep'])
    expect(parsePath('window.contextTokens')).toEqual(['window', 'contextTokens'])
    expect(parsePath('a[0][2]')).toEqual(['a', 0, 2])
    for (const bad of ['', '.a', 'a..b', 'a[x]', 'a[-1]', 'a b', 'a.'])
      expect(parsePath(bad)).toBeNull()
    const path = 'pipeline[1].trigger.conditions[0].over'
    expect(pathText(parsePath(path) ?? [])).toBe(path)
  })

  it('reads values and yields undefined off the map', () => {
    expect(getAtPath(config, 'pipeline[1].trigger.conditions[0].over')).toBe(50)
    expect(getAtPath(config, 'window.contextTokens')).toBe(2000)
    expect(getAtPath(config, 'pipeline[5].params.keep')).toBeUndefined()
    expect(getAtPath(config, 'window[0]')).toBeUndefined()
    expect(getAtPath(config, 'pipeline.keep')).toBeUndefined()
    expect(getAtPath(config, 'window.toString')).toBeUndefined()
  })

  it('sets a number immutably, copying only the containers on the way', () => {
    const set = setNumberAtPath(config, 'pipeline[1].params.keep', 2)
    if (!set.ok) throw new Error(set.message)
    expect(getAtPath(set.value, 'pipeline[1].params.keep')).toBe(2)
    expect(config.pipeline[1]?.params.keep).toBe(8)
    const next = set.value as typeof config
    expect(next.window).toBe(config.window)
    expect(next.pipeline[0]).toBe(config.pipeline[0])
    expect(next.pipeline[1]?.trigger).toBe(config.pipeline[1]?.trigger)
    expect(Array.isArray(next.pipeline)).toBe(true)
    // Null is the "off" value of optional numeric params: it may be swept too.
    expect(setNumberAtPath(config, 'pipeline[0].params.off', 4).ok).toBe(true)
  })

  it('refuses paths that lead nowhere or to something other than a number', () => {
    expect(setNumberAtPath(config, 'nope[', 1)).toMatchObject({ ok: false })
    expect(setNumberAtPath(config, 'pipeline[7].params.keep', 1)).toEqual({
      ok: false,
      message: 'nothing at pipeline[7]',
    })
    expect(setNumberAtPath(config, 'window.missing', 1)).toMatchObject({ ok: false })
    expect(setNumberAtPath(config, 'pipeline[0].params.name', 1)).toMatchObject({ ok: false })
    expect(setNumberAtPath(config, 'window', 1)).toMatchObject({ ok: false })
  })
})
