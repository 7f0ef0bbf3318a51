import { describe, expect, it } from 'vitest'
import { listNumericParams } from './params.ts'

const config = {
  version: 1,
  name: 'x',
  window: { contextTokens: 200_000, reservedOutput: 20_000, buffer: 0 },
  protections: { system: true, recentTurns: 2, pinned: [], tools: ['skill'] },
  pipeline: [
    {
      strategy: 'supersede-stale-results',
      enabled: true,
      trigger: { mode: 'any', conditions: [{ kind: 'window_fraction', over: 0.5 }] },
      target: { kind: 'window_fraction', under: 0.6 },
      params: { minToolOutputTokens: 250, tokenThreshold: null },
    },
    {
      strategy: 'clear-tool-uses',
      enabled: false,
      trigger: {
        mode: 'all',
        conditions: [
          { kind: 'tokens', over: 100_000 },
          { kind: 'tool_results', over: 10 },
        ],
      },
      params: { keep: 8, excludeTools: ['skill'], limits: { read: 3 }, steps: [1, 2] },
    },
  ],
  fallback: { enabled: true, strict: false, target: { kind: 'tokens', under: 90_000 } },
}

describe('listNumericParams', () => {
  it('lists every numeric leaf with its path and a readable label', () => {
    const params = listNumericParams(config)
    expect(params.map((p) => [p.path, p.label])).toEqual([
      ['window.contextTokens', 'window · contextTokens'],
      ['window.reservedOutput', 'window · reservedOutput'],
      ['window.buffer', 'window · buffer'],
      ['protections.recentTurns', 'protections · recentTurns'],
      [
        'pipeline[0].params.minToolOutputTokens',
        '1 · supersede-stale-results · minToolOutputTokens',
      ],
      [
        'pipeline[0].trigger.conditions[0].over',
        '1 · supersede-stale-results · trigger window fraction over',
      ],
      ['pipeline[0].target.under', '1 · supersede-stale-results · target window fraction under'],
      ['pipeline[1].params.keep', '2 · clear-tool-uses (off) · keep'],
      ['pipeline[1].params.limits.read', '2 · clear-tool-uses (off) · limits.read'],
      ['pipeline[1].params.steps[0]', '2 · clear-tool-uses (off) · steps[0]'],
      ['pipeline[1].params.steps[1]', '2 · clear-tool-uses (off) · steps[1]'],
      [
        'pipeline[1].trigger.conditions[0].over',
        '2 · clear-tool-uses (off) · trigger 1: tokens over',
      ],
      [
        'pipeline[1].trigger.conditions[1].over',
        '2 · clear-tool-uses (off) · trigger 2: tool results over',
      ],
      ['fallback.target.under', 'fallback · target tokens under'],
    ])
  })

  it('knows fractions of the window from counts', () => {
    const byPath = new Map(listNumericParams(config).map((p) => [p.path, p]))
    expect(byPath.get('pipeline[0].target.under')).toMatchObject({
      value: 0.6,
      integer: false,
      max: 1,
    })
    expect(byPath.get('window.contextTokens')).toMatchObject({
      value: 200_000,
      integer: true,
      max: null,
    })
  })

  it('copes with anything that is not a config', () => {
    expect(listNumericParams(null)).toEqual([])
    expect(listNumericParams({ pipeline: 'x', window: 3 })).toEqual([])
  })
})

describe('listNumericParams with the schema model', () => {
  it('takes whole-number flags and bounds from the model, not from the value', () => {
    const bounds = { integer: true, min: 1, exclusiveMin: false, max: 50 }
    const model = {
      conditions: [],
      targets: [
        {
          kind: 'window_fraction',
          key: 'under' as const,
          bounds: { integer: false, min: 0, exclusiveMin: true, max: 1 },
        },
      ],
      window: { buffer: { integer: true, min: 0, exclusiveMin: false, max: null } },
      protections: {},
      strategies: { 'clear-tool-uses': { keep: bounds } },
    }
    const cfg = {
      window: { buffer: 0.5 },
      pipeline: [
        {
          strategy: 'clear-tool-uses',
          params: { keep: 3 },
          target: { kind: 'window_fraction', under: 1 },
        },
      ],
    }
    const byPath = new Map(listNumericParams(cfg, model).map((p) => [p.path, p]))
    // 0.5 is not whole, but the schema says the field is: the sweep steps by whole numbers.
    expect(byPath.get('window.buffer')).toMatchObject({ integer: true, min: 0, max: null })
    expect(byPath.get('pipeline[0].params.keep')).toMatchObject({ integer: true, min: 1, max: 50 })
    // 1 is whole, but a fraction of the window is not.
    expect(byPath.get('pipeline[0].target.under')).toMatchObject({ integer: false, max: 1 })
  })
})
