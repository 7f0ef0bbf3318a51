import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { exporterName } from './exporter.ts'
import { loadConfigText, serializeConfig } from './load.ts'
import { PRESET_IDS, presetConfig } from './presets.ts'
import { CONFIG_SCHEMA_URL } from './schema.ts'

describe('config', () => {
  it('every preset is a valid config whose steps name registered strategies', () => {
    for (const id of PRESET_IDS) {
      const c = presetConfig(id)
      expect(c.name).toBe(id)
      expect(c.description.length).toBeGreaterThan(40)
      for (const step of c.pipeline) expect(STRATEGY_REGISTRY.has(step.strategy)).toBe(true)
    }
  })

  it('the recommended preset says why it is the default', () => {
    expect(presetConfig('recommended').description).toMatch(/least lossy/)
  })

  it('round-trips through our own format with defaults filled in', () => {
    for (const id of PRESET_IDS) {
      const text = serializeConfig(presetConfig(id))
      const again = loadConfigText(text, STRATEGY_REGISTRY)
      expect(again.ok && again.config).toEqual({
        ...presetConfig(id),
        $schema: expect.any(String),
        exporter: expect.any(String),
      })
    }
  })

  it('writes $schema (the schema the app serves), version and exporter first', () => {
    const parsed = JSON.parse(serializeConfig(presetConfig('lip'))) as Record<string, unknown>
    expect(Object.keys(parsed).slice(0, 3)).toEqual(['$schema', 'version', 'exporter'])
    expect(parsed.$schema).toBe(CONFIG_SCHEMA_URL)
    expect(parsed.exporter).toBe(exporterName())
    // Vite serves public/ from the site root, so the path names a file of the repo.
    expect(existsSync(new URL(`../../public${CONFIG_SCHEMA_URL}`, import.meta.url))).toBe(true)
    // Re-exporting a file written by another version names this one.
    const old = serializeConfig({ ...presetConfig('lip'), exporter: 'compaction-lab 0.0.1' })
    expect(JSON.parse(old)).toMatchObject({ exporter: exporterName() })
  })

  it('names the path of every problem', () => {
    const r = loadConfigText(
      JSON.stringify({
        version: 1,
        window: { contextTokens: 100, reservedOutput: 200 },
        pipeline: [
          { strategy: 'falai-nope' },
          { strategy: 'tool-result-budget', params: { compactionThreshold: 0.3 } },
        ],
      }),
      STRATEGY_REGISTRY,
    )
    expect(r.ok).toBe(false)
    const paths = r.ok ? [] : r.issues.map((i) => i.path)
    expect(paths).toContain('window')
    const r2 = loadConfigText(
      JSON.stringify({
        version: 1,
        window: { contextTokens: 1000, reservedOutput: 200 },
        pipeline: [
          { strategy: 'falai-nope' },
          { strategy: 'tool-result-budget', params: { compactionThreshold: 0.3 } },
        ],
      }),
      STRATEGY_REGISTRY,
    )
    const issues = r2.ok ? [] : r2.issues
    expect(issues.map((i) => i.path)).toEqual([
      'pipeline[0].strategy',
      'pipeline[1].params.compactionThreshold',
    ])
    expect(issues[1]?.message).toMatch(/0\.5/)
  })

  it('explains a missing or unknown version, and bad JSON with its position', () => {
    const missing = loadConfigText('{"window": {}}', STRATEGY_REGISTRY)
    expect(!missing.ok && missing.issues[0]?.message).toMatch(/missing "version"/)
    const broken = loadConfigText('{\n  "version": 1,\n  oops\n}', STRATEGY_REGISTRY)
    expect(!broken.ok && broken.issues[0]?.path).toMatch(/^line 3, offset \d+$/)
  })
})
