import { describe, expect, it } from 'vitest'
import { PRESET_IDS, isPresetId, presetConfig } from '../../config/presets.ts'
import { EXPORT_TARGETS, exportTarget, findTarget, isTargetId } from './index.ts'
import { valueAt } from './index.testing.ts'
import type { TargetId } from './types.ts'

const ALL_IDS: readonly TargetId[] = [
  'lip',
  'opencode',
  'anthropic',
  'falai',
  'maf',
  'langchain',
  'adachsoft',
]

describe('export target registry', () => {
  it('registers every target id exactly once', () => {
    expect(EXPORT_TARGETS.map((t) => t.id).sort()).toEqual([...ALL_IDS].sort())
    for (const id of ALL_IDS) {
      expect(isTargetId(id)).toBe(true)
      expect(findTarget(id)?.id).toBe(id)
    }
    expect(isTargetId('compaction-lab')).toBe(false)
    expect(findTarget('nope')).toBeUndefined()
  })

  it.each(ALL_IDS)('%s reproduces its own preset with no warnings', (id) => {
    const target = findTarget(id)!
    expect(isPresetId(target.preset)).toBe(true)
    if (!isPresetId(target.preset)) return
    const out = exportTarget(id, presetConfig(target.preset))
    expect(out.target).toBe(id)
    expect(out.text.length).toBeGreaterThan(0)
    expect(out.warnings).toEqual([])
  })

  it.each(ALL_IDS)('%s warns only at paths that exist in the config', (id) => {
    for (const preset of PRESET_IDS) {
      const config = presetConfig(preset)
      for (const w of exportTarget(id, config).warnings)
        expect(valueAt(config, w.path), `${preset}: ${w.path}`).not.toBeUndefined()
    }
  })
})
