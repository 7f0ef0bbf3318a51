import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { valueAt, variant } from './index.testing.ts'
import { opencodeTarget } from './opencode.ts'

interface OpencodeJson {
  $schema: string
  compaction: {
    auto: boolean
    prune: boolean
    reserved?: number
    tail_turns?: number
    preserve_recent_tokens?: number
  }
}

/** opencode reads opencode.json as JSONC: the first line is the summary as a `//` comment. */
function parsed(text: string): OpencodeJson {
  const [first, ...rest] = text.split('\n')
  expect(first).toMatch(/^\/\/ opencode /)
  return JSON.parse(rest.join('\n')) as OpencodeJson
}
const paths = (config: Parameters<typeof opencodeTarget.export>[0]) =>
  opencodeTarget.export(config).warnings.map((w) => w.path)

describe('opencode target', () => {
  it.each(PRESET_IDS)('exports preset %s as opencode.json', (id) => {
    const config = presetConfig(id)
    const out = opencodeTarget.export(config)
    // opencode loads opencode.json as JSONC, which lets the summary ride on the first line.
    expect(out).toMatchObject({ target: 'opencode', language: 'jsonc', fileName: 'opencode.json' })
    const doc = parsed(out.text)
    expect(doc.$schema).toBe('https://opencode.ai/config.json')
    expect(Object.keys(doc)).toEqual(['$schema', 'compaction'])
    // prune is always written: opencode prunes only when it is true.
    expect(typeof doc.compaction.prune).toBe('boolean')
    expect(out.text.split('\n')[0]).toBe(`// ${out.summary}`)
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
      c.protections = { recentTurns: 3, pinned: ['g3'], tools: ['skill'] }
    })
    // Three protected turns: the summary keeps them (tail_turns), the prune only its fixed 2.
    expect(paths(config)).toEqual([
      'pipeline[1].params.preserveRecentGroups',
      'protections.recentTurns',
      'protections.pinned',
      'protections.tools',
    ])
  })

  it('keeps protected turns as the summary tail with tail_turns and a window-sized budget', () => {
    const config = variant('opencode', (c) => {
      c.protections = { recentTurns: 2 }
      c.pipeline[1]!.params = { ...c.pipeline[1]!.params, preserveRecentGroups: 0 }
    })
    const out = opencodeTarget.export(config)
    expect(out.warnings).toEqual([])
    expect(parsed(out.text).compaction).toEqual({
      auto: true,
      prune: true,
      reserved: 20_000,
      tail_turns: 2,
      preserve_recent_tokens: 180_000,
    })
    expect(out.summary).toContain('keeping the last 2 user turn(s) verbatim')
  })

  it('writes tail_turns 0 for a summary that keeps nothing, and no tail keys for the preset', () => {
    const none = variant('opencode', (c) => {
      c.pipeline[1]!.params = { ...c.pipeline[1]!.params, preserveRecentGroups: 0 }
    })
    expect(parsed(opencodeTarget.export(none).text).compaction.tail_turns).toBe(0)
    const preset = opencodeTarget.export(presetConfig('opencode'))
    expect(parsed(preset.text).compaction).not.toHaveProperty('tail_turns')
    // The default tail budget, a quarter of the 180k usable window capped at 15k.
    expect(preset.notes.join(' ')).toContain('15,000 tokens here')
    expect(preset.notes.join(' ')).not.toMatch(/tail_turns, default 2/)
  })

  it('says reserved counts only on models with an input limit', () => {
    const out = opencodeTarget.export(presetConfig('opencode'))
    expect(out.notes.join(' ')).toMatch(/without an input limit opencode ignores reserved/)
    expect(out.summary).toBe(
      'opencode after every turn clears the output of tool calls older than the newest 40,000 tokens of tool output (never in the last 2 user turns, never `skill`) whenever that frees more than 20,000 tokens, and summarises the history before its tail (keeping the recent turns that fit in 15,000 tokens) once the usage the provider reports reaches 180,000 tokens on a model whose input limit is 200,000.',
    )
  })

  it('says it never compacts when nothing maps', () => {
    const out = opencodeTarget.export(presetConfig('lip'))
    expect(parsed(out.text).compaction).toEqual({ auto: false, prune: false })
    expect(out.summary).toBe(
      'opencode never compacts: automatic summaries and pruning are both off.',
    )
  })
})
