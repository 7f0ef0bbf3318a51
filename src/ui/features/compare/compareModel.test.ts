import { describe, expect, it } from 'vitest'
import type { WirePreset } from '../../../store/index.ts'
import { choiceOptions, configOf, defaultB, isChoice } from './compareModel.ts'

const preset = (id: string): WirePreset => ({ id, name: id, description: '', config: { name: id } })
const presets = [preset('recommended'), preset('lip')]

describe('compare choices', () => {
  it('offers the working config and every preset', () => {
    expect(choiceOptions(presets).map((o) => o.value)).toEqual([
      'working',
      'preset:recommended',
      'preset:lip',
    ])
    expect(isChoice('preset:lip')).toBe(true)
    expect(isChoice('lip')).toBe(false)
  })

  it('resolves a choice to its config', () => {
    const working = { name: 'edited' }
    expect(configOf('working', working, presets)).toBe(working)
    expect(configOf('preset:lip', working, presets)).toEqual({ name: 'lip' })
    expect(configOf('preset:nope', working, presets)).toBeNull()
  })

  it('defaults B to a preset other than the one in use', () => {
    expect(defaultB(presets, 'recommended')).toBe('preset:lip')
    expect(defaultB(presets, 'lip')).toBe('preset:recommended')
    expect(defaultB([], 'lip')).toBe('working')
  })
})
