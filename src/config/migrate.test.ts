import { describe, expect, it } from 'vitest'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { loadConfigText } from './load.ts'
import { migrateConfig } from './migrate.ts'

/** A config in the pre-release draft shape (version 0). */
const V0 = {
  version: 0,
  name: 'draft',
  contextWindow: 128_000,
  reservedOutput: 8_000,
  steps: [
    { use: 'supersede-stale-results', params: { minToolOutputTokens: 50 } },
    { use: 'clear-tool-uses', disabled: true, params: { keep: 4 } },
  ],
}

describe('config migration', () => {
  it('turns a version 0 draft into version 1 with the same meaning', () => {
    const migrated = migrateConfig(V0)
    expect(migrated).toEqual({
      ok: true,
      value: {
        version: 1,
        name: 'draft',
        window: { contextTokens: 128_000, reservedOutput: 8_000 },
        pipeline: [
          { strategy: 'supersede-stale-results', params: { minToolOutputTokens: 50 } },
          { strategy: 'clear-tool-uses', enabled: false, params: { keep: 4 } },
        ],
      },
    })
  })

  it('loads a version 0 file end to end: migrated, then validated with defaults filled', () => {
    const loaded = loadConfigText(JSON.stringify(V0), STRATEGY_REGISTRY)
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues))
    expect(loaded.config.version).toBe(1)
    expect(loaded.config.window).toEqual({
      contextTokens: 128_000,
      reservedOutput: 8_000,
      buffer: 0,
    })
    expect(loaded.config.pipeline.map((s) => [s.strategy, s.enabled])).toEqual([
      ['supersede-stale-results', true],
      ['clear-tool-uses', false],
    ])
  })

  it('reports problems of a migrated config at their version-1 path', () => {
    const bad = { ...V0, contextWindow: -1 }
    const loaded = loadConfigText(JSON.stringify(bad), STRATEGY_REGISTRY)
    expect(loaded.ok).toBe(false)
    if (!loaded.ok) expect(loaded.issues.map((i) => i.path)).toContain('window.contextTokens')
  })

  it('refuses versions it does not know', () => {
    expect(migrateConfig({ version: 9 })).toMatchObject({ ok: false, message: /newer/ })
    expect(migrateConfig({ version: 'x' })).toMatchObject({ ok: false, message: /unknown version/ })
    expect(migrateConfig({ ...V0, steps: 'nope' })).toMatchObject({ ok: false })
  })
})
