import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { STRATEGIES, STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { configJsonSchema } from './json-schema.ts'
import { validateJson } from './json-schema.testing.ts'
import { PRESET_IDS, presetConfig } from './presets.ts'
import { CONFIG_SCHEMA_URL } from './schema.ts'
import { validateConfig } from './validate.ts'

const FILE = new URL('../../public/schema/config-v1.json', import.meta.url)

const valid = {
  version: 1,
  window: { contextTokens: 100_000, reservedOutput: 4_000 },
  pipeline: [{ strategy: 'tool-payload-trim', params: { inputTrimBytes: 50 } }],
}

describe('config JSON Schema', () => {
  it('is the file published in public/schema (run `npm run schema` after changing a schema)', () => {
    expect(JSON.parse(readFileSync(FILE, 'utf8'))).toEqual(configJsonSchema())
  })

  it('names itself and describes params per strategy', () => {
    const schema = configJsonSchema()
    expect(schema.$id).toBe(CONFIG_SCHEMA_URL)
    expect(schema.title).toMatch(/Compaction Lab config/)
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'window', 'pipeline']))
    const props = schema.properties as {
      pipeline: { items: { properties: { strategy: { enum: string[] } }; allOf: unknown[] } }
    }
    const step = props.pipeline.items
    expect(step.properties.strategy.enum).toEqual(STRATEGIES.map((s) => s.id))
    expect(step.allOf).toHaveLength(STRATEGIES.length)
  })

  it.each(PRESET_IDS)('preset %s validates against it', (id) => {
    expect(validateJson(configJsonSchema(), presetConfig(id))).toEqual([])
  })

  it.each([
    ['an unknown strategy', { ...valid, pipeline: [{ strategy: 'nope' }] }],
    [
      'a param of the wrong type',
      { ...valid, pipeline: [{ strategy: 'tool-payload-trim', params: { inputTrimBytes: 'x' } }] },
    ],
    [
      'an unknown key in strict params',
      { ...valid, pipeline: [{ strategy: 'tool-payload-trim', params: { trimBytes: 1 } }] },
    ],
    [
      'a missing required param',
      { ...valid, pipeline: [{ strategy: 'sliding-window', params: {} }] },
    ],
    [
      'an unknown trigger kind',
      {
        ...valid,
        pipeline: [
          { strategy: 'micro-compact', trigger: { conditions: [{ kind: 'bytes', over: 1 }] } },
        ],
      },
    ],
    [
      'an empty trigger',
      { ...valid, pipeline: [{ strategy: 'micro-compact', trigger: { conditions: [] } }] },
    ],
    ['a misspelled top-level key', { ...valid, fallbak: { enabled: true } }],
    ['a misspelled protection', { ...valid, protections: { recentTurn: 4 } }],
    [
      'a misspelled param of a non-strict strategy',
      {
        ...valid,
        pipeline: [
          { strategy: 'sliding-window', params: { keepLastGroups: 2, preserveSytem: false } },
        ],
      },
    ],
    [
      'an unknown key in a trigger condition',
      {
        ...valid,
        pipeline: [
          {
            strategy: 'micro-compact',
            trigger: { conditions: [{ kind: 'tokens', over: 1, x: 1 }] },
          },
        ],
      },
    ],
    ['a wrong version', { ...valid, version: 2 }],
    ['a missing window', { version: 1, pipeline: [] }],
    [
      'a fraction over 1',
      {
        ...valid,
        pipeline: [{ strategy: 'micro-compact', target: { kind: 'window_fraction', under: 1.5 } }],
      },
    ],
  ])('rejects %s, as the app does', (_what, config) => {
    expect(validateJson(configJsonSchema(), config)).not.toEqual([])
    expect(validateConfig(config, STRATEGY_REGISTRY).ok).toBe(false)
  })

  it('accepts a minimal hand-written config, as the app does', () => {
    expect(validateJson(configJsonSchema(), valid)).toEqual([])
    expect(validateConfig(valid, STRATEGY_REGISTRY).ok).toBe(true)
  })
})
