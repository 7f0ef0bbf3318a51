import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { valueAt, variant } from './index.testing.ts'
import { opencodeTarget } from './opencode.ts'

interface OpencodeJson {
  $schema: string
  compaction: { auto: boolean; prune: boolean; reserved?: number }
}

const parsed = (text: string) => JSON.parse(text) as OpencodeJson
const paths = (config: Parameters<typeof opencodeTarget.export>[0]) =>
  opencodeTarget.export(config).warnings.map((w) => w.path)

describe('opencode target', () => {
  it.each(PRESET_IDS)('exports preset %s as opencode.json', (id) => {
    const config = presetConfig(id)
    const out = opencodeTarget.export(config)
    expect(out).toMatchObject({ target: 'opencode', language: 'json', fileName: 'opencode.json' })
    const doc = parsed(out.text)
    expect(doc.$schema).toBe('https://opencode.ai/config.json')
    expect(Object.keys(doc)).toEqual(['$schema', 'compaction'])
    // prune is always written: opencode reads an unset prune as off (issue #24108).
    expect(typeof doc.compaction.prune).toBe('boolean')
    expect(doc.compaction.auto).toBe(config.pipeline.some((s) => s.strategy === 'summarize'))
    for (const w of out.warnings) expect(valueAt(config, w.path), w.path).not.toBeUndefined()
  })

  it('reproduces its own preset with no warnings', () => {
    const out = opencodeTarget.export(presetConfig('opencode'))
    expect(out.warnings).toEqual([])
    expect(parsed(out.text).compaction).toEqual({ auto: true, prune: true, reserved: 20_000 })
  })

  it('warns exactly where the recommended preset goes beyond opencode', () => {
    const out = opencodeTarget.export(presetConfig('recommended'))
    // Summary at 85 % of the 180k usable window = 153k: 47k below the 200k limit.
    expect(parsed(out.text).compaction).toEqual({ auto: true, prune: false, reserved: 47_000 })
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[0].strategy',
      'pipeline[1].strategy',
      'pipeline[2].params.preserveRecentGroups',
      'pipeline[2].params.role',
      'pipeline[2].params.summaryPrefix',
      'pipeline[2].params.prompt',
      'protections.tools',
      'fallback',
    ])
  })

  it('warns for each prune constant that differs from opencode’s', () => {
    const config = variant('opencode', (c) => {
      c.pipeline[0]!.params = { protectTokens: 30_000, protectedTools: ['skill', 'memory'] }
    })
    expect(paths(config)).toEqual([
      'pipeline[0].params.protectTokens',
      'pipeline[0].params.protectedTools',
    ])
  })

  it('warns for a prune trigger, which opencode does not have', () => {
    const config = variant('opencode', (c) => {
      c.pipeline[0]!.trigger = { mode: 'any', conditions: [{ kind: 'tokens', over: 50_000 }] }
    })
    expect(paths(config)).toEqual(['pipeline[0].trigger'])
  })

  it('turns prune off when the config has no prune step', () => {
    const config = variant('opencode', (c) => {
      c.pipeline[0]!.enabled = false
    })
    const out = opencodeTarget.export(config)
    expect(parsed(out.text).compaction).toEqual({ auto: true, prune: false, reserved: 20_000 })
    expect(out.warnings).toEqual([])
  })

  it('warns when the summary has no trigger and leaves reserved to opencode', () => {
    const config = variant('opencode', (c) => {
      delete c.pipeline[1]!.trigger
    })
    const out = opencodeTarget.export(config)
    expect(parsed(out.text).compaction.reserved).toBeUndefined()
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[1].trigger'])
  })

  it('maps a token trigger to reserved and warns for count conditions', () => {
    const config = variant('opencode', (c) => {
      c.pipeline[1]!.trigger = {
        mode: 'any',
        conditions: [
          { kind: 'tokens', over: 150_000 },
          { kind: 'turns', over: 30 },
        ],
      }
    })
    const out = opencodeTarget.export(config)
    expect(parsed(out.text).compaction.reserved).toBe(50_000)
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[1].trigger.conditions[1]'])
  })

  it('warns for an early-stop target that would skip the summary opencode still runs', () => {
    const config = variant('opencode', (c) => {
      c.pipeline[0]!.target = { kind: 'tokens', under: 190_000 }
    })
    expect(paths(config)).toEqual(['pipeline[0].target'])
    const harmless = variant('opencode', (c) => {
      c.pipeline[0]!.target = { kind: 'tokens', under: 100_000 }
    })
    expect(paths(harmless)).toEqual([])
  })

  it('warns for protections opencode cannot honour', () => {
    const config = variant('opencode', (c) => {
      c.protections = { recentTurns: 1, pinned: ['g3'], tools: ['skill'] }
    })
    expect(paths(config)).toEqual([
      'protections.recentTurns',
      'protections.pinned',
      'protections.tools',
    ])
  })
})
