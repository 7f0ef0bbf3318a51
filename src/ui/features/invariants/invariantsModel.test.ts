import { describe, expect, it } from 'vitest'
import type { RunView } from '../../../store/index.ts'
import {
  checkLabel,
  failingChecks,
  offenceIndex,
  offences,
  stepOffence,
} from './invariantsModel.ts'

function summary(checks: RunView['invariants']['checks']): RunView {
  return {
    groups: { ids: ['g:system', 'ga', 'gb', 'gc', 'gd'] },
    invariants: { ok: checks.every((c) => c.ok), checks },
  } as unknown as RunView
}

const S = summary([
  {
    id: 'results_have_calls',
    ok: false,
    detail: 'results left (2)',
    offenders: ['m7', 'm3'],
    groups: ['gc', 'ga'],
  },
  { id: 'groups_whole', ok: true, detail: 'no group was split', offenders: [] },
  { id: 'protected_intact', ok: false, detail: 'changed (2)', offenders: ['gd:7:0', 'gb'] },
  { id: 'tokens_match', ok: false, detail: 'running total 3 ≠ recount 4', offenders: ['total'] },
])

describe('invariants panel model', () => {
  it('lists failing checks with their groups in conversation order', () => {
    const failing = failingChecks(S)
    expect(failing.map((c) => c.id)).toEqual([
      'results_have_calls',
      'protected_intact',
      'tokens_match',
    ])
    expect(failing[0]?.groups).toEqual(['ga', 'gc'])
    // Without the worker's mapping, group ids and `<group>:m:i` part keys still resolve.
    expect(failing[1]?.groups).toEqual(['gb', 'gd'])
    // `total` names no group: the check is listed but has nowhere to go.
    expect(failing[2]?.groups).toEqual([])
  })

  it('walks every offending group with wrap-around', () => {
    const list = offences(failingChecks(S))
    expect(list.map((o) => o.groupId)).toEqual(['ga', 'gc', 'gb', 'gd'])
    expect(stepOffence(list.length, -1, 1)).toBe(0)
    expect(stepOffence(list.length, -1, -1)).toBe(3)
    expect(stepOffence(list.length, 3, 1)).toBe(0)
    expect(stepOffence(list.length, 0, -1)).toBe(3)
    expect(stepOffence(0, -1, 1)).toBe(-1)
  })

  it('finds the selection in the walk, preferring the last stop for a group listed twice', () => {
    const list = [
      { checkId: 'a', groupId: 'g1' },
      { checkId: 'b', groupId: 'g2' },
      { checkId: 'c', groupId: 'g1' },
    ]
    expect(offenceIndex(list, 'g1', 2)).toBe(2)
    expect(offenceIndex(list, 'g1', 1)).toBe(0)
    expect(offenceIndex(list, 'zz', 0)).toBe(-1)
    expect(offenceIndex(list, null, 0)).toBe(-1)
  })

  it('all pass: no failing checks', () => {
    expect(
      failingChecks(summary([{ id: 'non_empty', ok: true, detail: 'ok', offenders: [] }])),
    ).toEqual([])
    expect(checkLabel('results_have_calls')).toBe('results have calls')
  })
})
