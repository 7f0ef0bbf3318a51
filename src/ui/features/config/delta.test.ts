import { describe, expect, it } from 'vitest'
import type { GroupStatus, RunView } from '../../../store/index.ts'
import { isUnchanged, runDelta, signed } from './delta.ts'

type Input = Pick<RunView, 'configName' | 'tokens' | 'groups' | 'invariants'>

function run(
  name: string,
  after: number,
  groups: readonly [string, GroupStatus][],
  failing: readonly string[] = [],
): Input {
  return {
    configName: name,
    tokens: { before: 1000, after, window: 2000, reservedOutput: 100, buffer: 0, usable: 1900 },
    groups: {
      ids: groups.map(([id]) => id),
      kinds: groups.map(() => 'text'),
      status: groups.map(([, s]) => s),
      tokensBefore: new Float64Array(groups.length),
      tokensAfter: new Float64Array(groups.length),
      roles: groups.map(() => 'user'),
      tools: groups.map(() => ''),
      resources: groups.map(() => ''),
      turns: new Int32Array(groups.length),
      firstMessage: new Int32Array(groups.length),
      messageCounts: new Int32Array(groups.length),
    },
    invariants: {
      ok: failing.length === 0,
      checks: ['pairs', 'budget', 'order'].map((id) => ({
        id,
        ok: !failing.includes(id),
        detail: '',
        offenders: [],
      })),
    },
  }
}

describe('run delta', () => {
  it('compares tokens, group statuses (by id) and invariants', () => {
    const previous = run(
      'a',
      800,
      [
        ['g1', 'kept'],
        ['g2', 'kept'],
        ['g3', 'stubbed'],
      ],
      ['budget'],
    )
    const latest = run(
      'b',
      600,
      [
        ['g3', 'stubbed'],
        ['g2', 'excluded'],
        ['g1', 'kept'],
        ['g4', 'kept'],
      ],
      ['pairs'],
    )
    const delta = runDelta(previous, latest)
    expect(delta).toMatchObject({
      afterBefore: 800,
      afterNow: 600,
      afterChange: -200,
      savedBefore: 200,
      savedNow: 400,
      savedChange: 200,
      groupsChanged: 1,
      newlyFailing: ['pairs'],
      newlyPassing: ['budget'],
      configBefore: 'a',
      configNow: 'b',
    })
    expect(isUnchanged(delta)).toBe(false)
  })

  it('counts changed statuses in place when both runs list the same groups', () => {
    const groups: [string, GroupStatus][] = [
      ['g1', 'kept'],
      ['g2', 'kept'],
      ['g3', 'stubbed'],
    ]
    const latest: [string, GroupStatus][] = [
      ['g1', 'excluded'],
      ['g2', 'kept'],
      ['g3', 'kept'],
    ]
    expect(runDelta(run('a', 800, groups), run('a', 700, latest)).groupsChanged).toBe(2)
  })

  it('says when nothing changed', () => {
    const same = run('a', 800, [['g1', 'kept']])
    expect(isUnchanged(runDelta(same, run('a', 800, [['g1', 'kept']])))).toBe(true)
  })

  it('signs numbers with a real minus', () => {
    expect(signed(1234)).toBe('+1,234')
    expect(signed(-5)).toBe('−5')
    expect(signed(0)).toBe('±0')
    expect(signed(-1234567.5)).toBe((-1234567.5).toLocaleString('en-US').replace('-', '−'))
  })
})
