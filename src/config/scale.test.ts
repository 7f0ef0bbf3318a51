import { describe, expect, it } from 'vitest'
import { presetConfig } from './presets.ts'
import { scale } from './scale.ts'
import { toEngineConfig } from './validate.ts'

describe('scale', () => {
  it('scales positive token figures and keeps zeros zero (no clear_at_least stays none)', () => {
    const config = toEngineConfig(presetConfig('anthropic-clear-tool-uses'))
    const small = scale(config, 0.001)
    expect(small.pipeline[0]?.params).toMatchObject({ triggerInputTokens: 100, clearAtLeast: 0 })
    expect(small.window.contextTokens).toBe(200)
  })
})
