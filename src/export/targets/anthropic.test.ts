import { describe, expect, it } from 'vitest'
import { PRESET_IDS, presetConfig } from '../../config/presets.ts'
import { anthropicTarget } from './anthropic.ts'
import { valueAt, variant } from './index.testing.ts'

type Edit = Record<string, unknown> & { type: string }

function edits(text: string): Edit[] {
  const doc = JSON.parse(text) as { context_management: { edits: Edit[] } }
  expect(Object.keys(doc)).toEqual(['context_management'])
  return doc.context_management.edits
}

const paths = (config: Parameters<typeof anthropicTarget.export>[0]) =>
  anthropicTarget.export(config).warnings.map((w) => w.path)

const EDIT_TYPES = ['clear_thinking_20251015', 'clear_tool_uses_20250919', 'compact_20260112']

describe('anthropic target', () => {
  it.each(PRESET_IDS)('exports preset %s as a context_management fragment', (id) => {
    const config = presetConfig(id)
    const out = anthropicTarget.export(config)
    expect(out.target).toBe('anthropic')
    if (out.language === 'text') {
      // No edit maps: no fragment at all rather than an empty edits list.
      expect(out.text).toBe(`${out.summary}\n`)
      expect(out.text).not.toContain('edits')
    } else {
      expect(out.language).toBe('json')
      for (const e of edits(out.text)) expect(EDIT_TYPES).toContain(e.type)
    }
    for (const w of out.warnings) expect(valueAt(config, w.path), w.path).not.toBeUndefined()
  })

  it('says "nothing to send" when no step maps, and what the API does otherwise', () => {
    for (const id of ['lip', 'adachsoft', 'maf-context-window'] as const)
      expect(anthropicTarget.export(presetConfig(id)).summary).toMatch(/^Nothing to send: /)
    expect(anthropicTarget.export(presetConfig('anthropic-clear-tool-uses')).summary).toBe(
      'The API clears the results of tool uses older than the 3 most recent once the input passes 100,000 tokens.',
    )
    expect(anthropicTarget.export(presetConfig('recommended')).summary).toBe(
      'The API clears the results of tool uses older than the 8 most recent, never those of skill, Skill, once the input passes 126,000 tokens, and only when that frees at least 10,000 tokens; it replaces everything before the latest turns with a server-written summary block once the input passes 153,000 tokens.',
    )
  })

  it('keeps at least one thinking turn, the documented minimum, and warns for keep 0', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline = [{ strategy: 'clear-thinking', params: { keep: 0 } }]
    })
    const out = anthropicTarget.export(config)
    expect(edits(out.text)).toEqual([
      { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } },
    ])
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.keep'])
  })

  it('reproduces its own preset with no warnings and names the beta header', () => {
    const out = anthropicTarget.export(presetConfig('anthropic-clear-tool-uses'))
    expect(out.warnings).toEqual([])
    expect(edits(out.text)).toEqual([
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 100_000 },
        keep: { type: 'tool_uses', value: 3 },
      },
    ])
    expect(out.notes.join('\n')).toContain('anthropic-beta: context-management-2025-06-27')
  })

  it('translates the recommended preset and warns exactly where the API falls short', () => {
    const out = anthropicTarget.export(presetConfig('recommended'))
    expect(edits(out.text)).toEqual([
      {
        type: 'clear_tool_uses_20250919',
        // 70 % and 85 % of the 180k usable window.
        trigger: { type: 'input_tokens', value: 126_000 },
        keep: { type: 'tool_uses', value: 8 },
        clear_at_least: { type: 'input_tokens', value: 10_000 },
        exclude_tools: ['skill', 'Skill'],
      },
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 153_000 } },
    ])
    expect(out.warnings.map((w) => w.path)).toEqual([
      'pipeline[0].strategy',
      'pipeline[2].params.preserveRecentGroups',
      'pipeline[2].params.role',
      'pipeline[2].params.placement',
      'pipeline[2].params.summaryPrefix',
      'protections.tools',
      'fallback',
    ])
    expect(out.notes.join('\n')).toContain('context-management-2025-06-27,compact-2026-01-12')
  })

  it('lists the thinking edit first whatever the pipeline order', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline.push({ strategy: 'clear-thinking', params: { keep: 'all' } })
    })
    const out = anthropicTarget.export(config)
    expect(edits(out.text).map((e) => e.type)).toEqual([
      'clear_thinking_20251015',
      'clear_tool_uses_20250919',
    ])
    expect(edits(out.text)[0]).toEqual({ type: 'clear_thinking_20251015', keep: 'all' })
    expect(out.warnings).toEqual([])
  })

  it('keeps a numeric thinking keep as thinking_turns and warns for a thinking trigger', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline = [
        {
          strategy: 'clear-thinking',
          params: { keep: 2 },
          trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 10 }] },
        },
      ]
    })
    const out = anthropicTarget.export(config)
    expect(edits(out.text)).toEqual([
      { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
    ])
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].trigger'])
  })

  it('uses a tool_uses trigger when that is the only one, and warns when two must combine', () => {
    const uses = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline[0]!.params = { triggerInputTokens: null, triggerToolUses: 20, keep: 3 }
    })
    const out = anthropicTarget.export(uses)
    expect(edits(out.text)[0]?.trigger).toEqual({ type: 'tool_uses', value: 20 })
    expect(out.warnings).toEqual([])

    const both = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline[0]!.params = { triggerInputTokens: 80_000, triggerToolUses: 20 }
    })
    const out2 = anthropicTarget.export(both)
    expect(edits(out2.text)[0]?.trigger).toEqual({ type: 'input_tokens', value: 80_000 })
    expect(out2.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.triggerToolUses'])
  })

  it('combines the pipeline trigger and the step’s own (both must hold: the higher wins)', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline[0]!.trigger = { mode: 'any', conditions: [{ kind: 'tokens', over: 120_000 }] }
    })
    expect(edits(anthropicTarget.export(config).text)[0]?.trigger).toEqual({
      type: 'input_tokens',
      value: 120_000,
    })
  })

  it('warns when a clear step has no trigger at all', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.pipeline[0]!.params = { triggerInputTokens: null }
    })
    const out = anthropicTarget.export(config)
    expect(edits(out.text)[0]?.trigger).toBeUndefined()
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.triggerInputTokens'])
  })

  it('maps clear_tool_inputs and protected tools, and warns for a custom placeholder', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.protections = { tools: ['memory'] }
      c.pipeline[0]!.params = {
        excludeTools: ['skill'],
        clearToolInputs: ['Write'],
        placeholder: '[removed]',
      }
    })
    const out = anthropicTarget.export(config)
    expect(edits(out.text)[0]).toMatchObject({
      exclude_tools: ['skill', 'memory'],
      clear_tool_inputs: ['Write'],
    })
    expect(out.warnings.map((w) => w.path)).toEqual(['pipeline[0].params.placeholder'])
  })

  it('sends a custom summary prompt as compaction instructions', () => {
    const out = anthropicTarget.export(presetConfig('opencode'))
    const compactEdit = edits(out.text).find((e) => e.type === 'compact_20260112')
    expect(compactEdit?.trigger).toEqual({ type: 'input_tokens', value: 180_000 })
    expect(String(compactEdit?.instructions)).toContain('relevant files')
    expect(out.notes.join('\n')).toContain('anthropic-beta: compact-2026-01-12')
  })

  it('warns for protections and the fallback', () => {
    const config = variant('anthropic-clear-tool-uses', (c) => {
      c.protections = { recentTurns: 3, pinned: ['m9'] }
      c.fallback = { enabled: true }
    })
    expect(paths(config)).toEqual(['protections.recentTurns', 'protections.pinned', 'fallback'])
  })
})
