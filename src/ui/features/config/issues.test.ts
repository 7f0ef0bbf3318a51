import { describe, expect, it } from 'vitest'
import { assignIssues, formFieldPaths, type FormShape } from './issues.ts'
import { objectFields } from './schemaFields.ts'

const shape: FormShape = {
  window: objectFields({
    type: 'object',
    properties: { contextTokens: { type: 'integer' }, reservedOutput: { type: 'integer' } },
  }),
  protections: objectFields({ type: 'object', properties: { recentTurns: { type: 'integer' } } }),
  params: (strategy) =>
    strategy === 'clear-tool-uses'
      ? objectFields({ type: 'object', properties: { keep: { type: 'integer' } } })
      : [],
}

const config = {
  window: { contextTokens: 1000, reservedOutput: 100 },
  pipeline: [
    {
      strategy: 'clear-tool-uses',
      params: { keep: 3 },
      trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 10 }] },
    },
    { strategy: 'mystery', params: {}, target: { kind: 'tokens', under: 5 } },
  ],
  fallback: { enabled: true },
}

describe('issue placement', () => {
  const paths = formFieldPaths(config, shape)

  it('lists the paths the form renders', () => {
    expect(paths).toContain('window.contextTokens')
    expect(paths).toContain('pipeline[0].params.keep')
    expect(paths).toContain('pipeline[0].trigger.conditions[0].over')
    expect(paths).toContain('pipeline[1].target.under')
    expect(paths).not.toContain('pipeline[1].trigger')
    expect(paths).not.toContain('fallback.target')
  })

  it('puts each issue at its field, or at the nearest enclosing one', () => {
    const placed = assignIssues(
      [
        { path: 'window.contextTokens', message: 'too small' },
        { path: 'window', message: 'reservedOutput + buffer must leave room' },
        { path: 'pipeline[0].params', message: 'Unrecognized key: "kep"' },
        { path: 'pipeline[0].trigger.conditions[0].over', message: 'too big' },
        { path: 'pipeline[1].params.whatever', message: 'odd' },
        { path: '(root)', message: 'not an object' },
        { path: 'name', message: 'expected string' },
      ],
      paths,
    )
    expect(placed.get('window.contextTokens')?.map((i) => i.message)).toEqual(['too small'])
    expect(placed.get('window')?.map((i) => i.message)).toEqual([
      'reservedOutput + buffer must leave room',
    ])
    expect(placed.get('pipeline[0].params')).toHaveLength(1)
    expect(placed.get('pipeline[0].trigger.conditions[0].over')).toHaveLength(1)
    expect(placed.get('pipeline[1].params')).toHaveLength(1)
    expect(placed.get('')).toHaveLength(2)
  })
})
