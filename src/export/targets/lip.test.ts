import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { valueAt, variant } from './index.testing.ts'
import { lipTarget } from './lip.ts'

interface LipSection {
  enabled: boolean
  token_threshold?: number
  max_tokens?: number
  allowed_tool_categories?: string[]
  denied_tool_categories?: string[]
  preserve_last_n_results?: number
  max_stubs_per_resource?: number
  stub_template?: string
  redact_resource_identifiers?: boolean
}

function section(text: string): LipSection {
  const doc = parse(text) as { compaction: LipSection }
  expect(Object.keys(doc)).toEqual(['compaction'])
  return doc.compaction
}

const paths = (config: Parameters<typeof lipTarget.export>[0]) =>
  lipTarget.export(config).warnings.map((w) => w.path)

describe('lip target', () => {
  it.each(PRESET_IDS)('exports preset %s as YAML with a compaction section', (id) => {
    const config = presetConfig(id)
    const out = lipTarget.export(config)
    expect(out).toMatchObject({ target: 'lip', language: 'yaml', fileName: 'config.yaml' })
    const s = section(out.text)
    expect(typeof s.enabled).toBe('boolean')
    const hasStep = config.pipeline.some((p) => p.strategy === 'supersede-stale-results')
    expect(s.enabled).toBe(hasStep)
    for (const w of out.warnings) {
      expect(valueAt(config, w.path), w.path).not.toBeUndefined()
      expect(w.message.length).toBeGreaterThan(0)
      expect(w.instead.length).toBeGreaterThan(0)
    }
  })

  it('reproduces its own preset with no warnings', () => {
    const out = lipTarget.export(presetConfig('lip'))
    expect(out.warnings).toEqual([])
    expect(section(out.text)).toEqual({
      enabled: true,
      token_threshold: 100_000,
      max_tokens: 200_000 - 8_192,
      allowed_tool_categories: ['file_read', 'view_file', 'search', 'list_dir', 'test_execution'],
      denied_tool_categories: ['file_write', 'command_execution'],
      preserve_last_n_results: 1,
      max_stubs_per_resource: 1,
      redact_resource_identifiers: false,
    })
  })

  it('never writes min_tool_output_tokens_to_compact (the proxy’s schema refuses it) and warns for a minimum LIP cannot take', () => {
    for (const id of PRESET_IDS)
      expect(lipTarget.export(presetConfig(id)).text).not.toContain('min_tool_output')
    const config = variant('lip', (c) => {
      c.pipeline[0]!.params = { ...c.pipeline[0]!.params, minToolOutputTokens: 50 }
    })
    expect(paths(config)).toEqual(['pipeline[0].params.minToolOutputTokens'])
  })

  it('says in its first line what the proxy will do', () => {
    const out = lipTarget.export(presetConfig('lip'))
    expect(out.text.split('\n')[0]).toBe(`# ${out.summary}`)
    expect(out.summary).toBe(
      'llm-interactive-proxy replaces each older file_read/view_file/search/list_dir/test_execution tool output that a newer result for the same resource supersedes with a [COMPACTED] stub (outputs under 250 estimated tokens stay) once its chars/4 estimate of the request reaches 100,000 tokens.',
    )
    expect(lipTarget.export(presetConfig('falai')).summary).toMatch(/compaction is disabled/)
  })

  it('warns exactly where the recommended preset goes beyond LIP', () => {
    const out = lipTarget.export(presetConfig('recommended'))
    // 0.5 of the usable window (200k − 20k).
    expect(section(out.text).token_threshold).toBe(90_000)
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[1].strategy',
      'pipeline[2].strategy',
      'pipeline[0].params.writesMakeStale',
      'protections.tools',
      'fallback',
    ])
  })

  it('disables compaction when no step maps, and warns for each step', () => {
    const out = lipTarget.export(presetConfig('maf-context-window'))
    expect(section(out.text)).toEqual({ enabled: false })
    expect(out.warnings.map((w) => w.path)).toEqual(
      [0, 1, 2, 3].map((i) => `pipeline[${i}].strategy`),
    )
  })

  it('writes list_dir for the documented list_directory spelling, unless faithful', () => {
    const fixed = variant('lip', (c) => {
      c.pipeline[0]!.params = { allowedCategories: ['list_directory', 'list_dir', 'file_read'] }
    })
    expect(section(lipTarget.export(fixed).text).allowed_tool_categories).toEqual([
      'list_dir',
      'file_read',
    ])
    const faithful = variant('lip', (c) => {
      c.pipeline[0]!.params = { faithful: true, allowedCategories: ['list_directory'] }
    })
    expect(section(lipTarget.export(faithful).text).allowed_tool_categories).toEqual([
      'list_directory',
    ])
  })

  it('writes empty category lists explicitly (a present section never falls back to the safe lists)', () => {
    const config = variant('lip', (c) => {
      c.pipeline[0]!.params = { allowedCategories: [], deniedCategories: [] }
    })
    const out = lipTarget.export(config)
    expect(out.text).toContain('allowed_tool_categories: []')
    expect(section(out.text).denied_tool_categories).toEqual([])
  })

  it('warns when compactable commands would hit LIP’s program-name identity, only in fixed mode', () => {
    const allowCommands = (faithful: boolean) =>
      variant('lip', (c) => {
        c.pipeline[0]!.params = {
          writesMakeStale: false,
          faithful,
          allowedCategories: ['file_read', 'command_execution'],
          deniedCategories: ['file_write'],
        }
      })
    const fixed = lipTarget.export(allowCommands(false))
    expect(fixed.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.faithful'])
    expect(fixed.warnings[0]?.message).toContain('git status')
    expect(lipTarget.export(allowCommands(true)).warnings).toEqual([])
  })

  it('warns when `other` is compactable while writes are denied', () => {
    const config = variant('lip', (c) => {
      c.pipeline[0]!.params = {
        writesMakeStale: false,
        allowedCategories: [],
        deniedCategories: ['file_write', 'command_execution'],
      }
    })
    const out = lipTarget.export(config)
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.faithful'])
    expect(out.warnings[0]?.message).toContain('`other`')
  })

  it('warns for the settings LIP declares but ignores, and still writes them', () => {
    const config = variant('lip', (c) => {
      c.pipeline[0]!.params = {
        writesMakeStale: false,
        preserveLastN: 2,
        maxStubsPerResource: null,
        stubTemplate: '[gone] {resource}: {bytes} bytes',
      }
    })
    const out = lipTarget.export(config)
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[0].params.preserveLastN',
      'pipeline[0].params.maxStubsPerResource',
      'pipeline[0].params.stubTemplate',
    ])
    const s = section(out.text)
    expect(s.preserve_last_n_results).toBe(2)
    expect(s.max_stubs_per_resource).toBeUndefined()
    expect(s.stub_template).toBe('[gone] {resource}: {bytes} bytes')
  })

  it('warns for per-tool lists, which config.yaml cannot hold', () => {
    const config = variant('lip', (c) => {
      c.pipeline[0]!.params = {
        allowedTools: ['Read'],
        deniedTools: ['Bash'],
        writesMakeStale: false,
      }
    })
    expect(paths(config)).toEqual([
      'pipeline[0].params.allowedTools',
      'pipeline[0].params.deniedTools',
    ])
  })

  it('reduces triggers to one token threshold and warns for count conditions', () => {
    const config = variant('lip', (c) => {
      c.pipeline[0]!.trigger = {
        mode: 'any',
        conditions: [
          { kind: 'tokens', over: 120_000 },
          { kind: 'window_fraction', over: 0.5 },
          { kind: 'messages', over: 40 },
        ],
      }
    })
    const out = lipTarget.export(config)
    expect(section(out.text).token_threshold).toBe(Math.round(0.5 * (200_000 - 8_192)))
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].trigger.conditions[2]'])
  })

  it('maps "no trigger" to threshold 0, and a faithful step to the higher of its gates', () => {
    const always = variant('lip', (c) => {
      delete c.pipeline[0]!.trigger
    })
    expect(section(lipTarget.export(always).text).token_threshold).toBe(0)
    const faithful = variant('lip', (c) => {
      c.pipeline[0]!.params = { faithful: true, tokenThreshold: 120_000 }
    })
    expect(section(lipTarget.export(faithful).text).token_threshold).toBe(120_000)
  })

  it('warns for protections LIP cannot honour', () => {
    const config = variant('lip', (c) => {
      c.protections = { recentTurns: 2, pinned: ['m1'], tools: ['skill'] }
      c.fallback = { enabled: true }
    })
    expect(paths(config)).toEqual([
      'protections.recentTurns',
      'protections.pinned',
      'protections.tools',
      'fallback',
    ])
  })

  it('keeps a second supersede step out with a warning', () => {
    const config = variant('lip', (c) => {
      c.pipeline.push({ strategy: 'supersede-stale-results', params: {} })
    })
    expect(paths(config)).toEqual(['pipeline[1].strategy'])
  })
})
