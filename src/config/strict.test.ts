import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import { loadConfigText } from './load.ts'
import { configSchema } from './schema.ts'
import { nearest, unknownKeys } from './strict.ts'
import { validateConfig } from './validate.ts'

/**
 * Issue 10 item 6: misspelled keys were stripped silently — `{"protections": {"recentTurn": 4}}`
 * ran with no protection at all. Now every unknown key, at any depth and in every strategy's
 * params, is an error naming its path and the nearest valid key; and every problem of a config
 * is reported at once.
 */
const load = (config: unknown) => loadConfigText(JSON.stringify(config), STRATEGY_REGISTRY)
const issues = (config: unknown) => {
  const r = load(config)
  return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`)
}
const window = { contextTokens: 10_000, reservedOutput: 1_000 }

describe('unknown config keys are errors with the nearest valid key', () => {
  it('the issue report: every misspelling is named, with a suggestion', () => {
    expect(
      issues({
        version: 1,
        window,
        protections: { recentTurn: 4 },
        fallbak: { enabled: true },
        pipeline: [{ strategy: 'sliding-window', params: { keepLastt: 3, preserveSytem: false } }],
      }),
    ).toEqual([
      'protections.recentTurn: unknown key "recentTurn"; did you mean `recentTurns`?',
      'fallbak: unknown key "fallbak"; did you mean `fallback`?',
      'pipeline[0].params.keepLastGroups: keepLastGroups is required (MAF keep_last_groups)',
      'pipeline[0].params.keepLastt: unknown key "keepLastt"; did you mean `keepLastGroups`?',
      'pipeline[0].params.preserveSytem: unknown key "preserveSytem"; did you mean `preserveSystem`?',
    ])
  })

  it('finds keys at any depth: window, triggers, conditions, targets, steps, fallback', () => {
    expect(
      issues({
        version: 1,
        window: { ...window, bufer: 1 },
        pipeline: [
          {
            strategy: 'micro-compact',
            enabeld: false,
            trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 5, under: 1 }] },
            target: { kind: 'window_fraction', under: 0.5, ovr: 1 },
          },
        ],
        fallback: { enabled: true, strict: false, target: { kind: 'tokens', under: 9, x: 0 } },
      }),
    ).toEqual([
      'window.bufer: unknown key "bufer"; did you mean `buffer`?',
      'pipeline[0].enabeld: unknown key "enabeld"; did you mean `enabled`?',
      'pipeline[0].trigger.conditions[0].under: unknown key "under"; valid here: `kind`, `over`',
      'pipeline[0].target.ovr: unknown key "ovr"; valid here: `kind`, `under`',
      'fallback.target.x: unknown key "x"; valid here: `kind`, `under`',
    ])
  })

  it('suggests the nearest strategy id for an unknown strategy', () => {
    expect(issues({ version: 1, window, pipeline: [{ strategy: 'sliding-windw' }] })).toEqual([
      'pipeline[0].strategy: unknown strategy "sliding-windw"; did you mean `sliding-window`?',
    ])
  })

  it('reports every problem at once: a missing window does not hide the rest', () => {
    expect(
      issues({
        version: 1,
        protections: { recentTurns: -1, pinnned: [] },
        pipeline: [
          { strategy: 'tool-result-budget', params: { maxChars: 'many' } },
          { strategy: 'nope' },
        ],
      }),
    ).toEqual([
      'window: missing: expected an object',
      'protections.recentTurns: Too small: expected number to be >=0',
      'protections.pinnned: unknown key "pinnned"; did you mean `pinned`?',
      expect.stringMatching(/^pipeline\[0\]\.params\.maxChars: /),
      expect.stringMatching(/^pipeline\[1\]\.strategy: unknown strategy "nope"; one of: /),
    ])
  })

  it('never words a missing field as "received undefined" or "got a undefined"', () => {
    const text = issues({ version: 1, pipeline: [{ strategy: 'sliding-window', params: {} }] })
    expect(text.join('\n')).not.toMatch(/undefined/)
    expect(text[0]).toBe('window: missing: expected an object')
  })

  it('still accepts every valid config with its defaults filled', () => {
    const r = load({ version: 1, window, pipeline: [{ strategy: 'micro-compact' }] })
    expect(r.ok).toBe(true)
  })
})

describe('strictness derives from the schema, so new sections are covered when added', () => {
  it('a section added to the schema later is checked like the others', () => {
    const extended = configSchema.extend({
      accounting: z
        .object({ hiddenPrefix: z.number().optional(), scale: z.number().optional() })
        .optional(),
    })
    const found = unknownKeys(extended, {
      version: 1,
      window,
      pipeline: [],
      accounting: { hiddenPrefx: 100, scale: 1 },
    })
    expect(found).toEqual([
      {
        path: ['accounting'],
        key: 'hiddenPrefx',
        suggestion: 'hiddenPrefix',
        valid: ['hiddenPrefix', 'scale'],
      },
    ])
    expect(unknownKeys(configSchema, { fleet: {} }).map((u) => u.key)).toEqual(['fleet'])
  })

  it('open objects and records accept any key; unions use the matching branch', () => {
    const schema = z.object({
      loose: z.looseObject({ a: z.number() }),
      rec: z.record(z.string(), z.object({ x: z.number() })),
      u: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), one: z.number() }),
        z.object({ kind: z.literal('b'), two: z.number() }),
      ]),
    })
    expect(
      unknownKeys(schema, {
        loose: { a: 1, anything: 2 },
        rec: { k: { x: 1, y: 2 } },
        u: { kind: 'b', two: 2, one: 1 },
      }).map((u) => [u.path.join('.'), u.key]),
    ).toEqual([
      ['rec.k', 'y'],
      ['u', 'one'],
    ])
  })

  it('nearest() only suggests a close key', () => {
    expect(nearest('recentTurn', ['system', 'recentTurns', 'pinned'])).toBe('recentTurns')
    expect(nearest('zzz', ['system', 'recentTurns', 'pinned'])).toBeUndefined()
  })

  it('validateConfig walks every strategy params schema (all strategies)', () => {
    for (const id of STRATEGY_REGISTRY.keys()) {
      const r = validateConfig(
        { version: 1, window, pipeline: [{ strategy: id, params: { zzzUnknown: 1 } }] },
        STRATEGY_REGISTRY,
      )
      expect(r.ok, id).toBe(false)
      if (!r.ok)
        expect(
          r.issues.map((i) => i.path),
          id,
        ).toContain('pipeline[0].params.zzzUnknown')
    }
  })
})
