import { describe, expect, it } from 'vitest'
import type { RunView } from '../../../store/index.ts'
import { buildRows, createRowCache, decisionsByGroup } from './groupRows.ts'

/** A run of three groups; g1 and g2 have a decision each (indices 0 and 1), g0 none. */
function run(number: number, status: readonly string[], after: readonly number[]): RunView {
  const ids = ['g0', 'g1', 'g2']
  return {
    groups: {
      ids,
      kinds: ids.map(() => 'tool_call'),
      status,
      tokensBefore: new Float64Array([10, 20, 30]),
      tokensAfter: new Float64Array(after),
      roles: ids.map(() => 'assistant'),
      tools: ids.map(() => 'Read'),
      resources: ids.map(() => ''),
      turns: new Int32Array(3),
      firstMessage: new Int32Array([0, 1, 2]),
      messageCounts: new Int32Array([1, 1, 1]),
    },
    decisions: {
      run: number,
      length: 2,
      kinds: ['stub'],
      kind: new Uint8Array([0, 0]),
      strategies: ['supersede-stale-results'],
      strategy: new Uint16Array(2),
      reasons: ['superseded'],
      reason: new Uint16Array(2),
      step: new Int32Array(2),
      groupId: ['g1', 'g2'],
      tokensBefore: new Float64Array([20, 30]),
      tokensAfter: new Float64Array([2, 3]),
      round: new Int32Array([-1, -1]),
      fixed: {},
    },
  } as unknown as RunView
}

describe('rows and their sentences', () => {
  it('have no sentence until theirs are in, then read them by decision index', () => {
    const first = run(1, ['kept', 'stubbed', 'stubbed'], [10, 2, 3])
    expect([...decisionsByGroup(first.decisions)]).toEqual([
      ['g1', 0],
      ['g2', 1],
    ])
    const pending = buildRows(first)
    expect(pending.map((r) => r.detail)).toEqual(['', '', ''])
    const rows = buildRows(
      first,
      pending,
      new Map([
        [0, 'one'],
        [1, 'two'],
      ]),
    )
    expect(rows.map((r) => r.detail)).toEqual(['', 'one', 'two'])
    // Only the rows whose sentence came in are new objects.
    expect(rows[0]).toBe(pending[0])
    expect(rows[1]).not.toBe(pending[1])
  })

  it("keep an unchanged row (with its sentence) while the next run's sentences are coming", () => {
    const rowsOf = createRowCache()
    const first = run(1, ['kept', 'stubbed', 'stubbed'], [10, 2, 3])
    const shown = rowsOf(
      first,
      new Map([
        [0, 'one'],
        [1, 'two'],
      ]),
    )
    // The next run changed g2 only; its sentences are not in yet.
    const next = run(2, ['kept', 'stubbed', 'stubbed'], [10, 2, 4])
    const pending = rowsOf(next, null)
    expect(pending[1]).toBe(shown[1])
    expect(pending[2]).not.toBe(shown[2])
    expect(pending[2]?.detail).toBe('')
    const settled = rowsOf(
      next,
      new Map([
        [0, 'one'],
        [1, 'two, again'],
      ]),
    )
    expect(settled.map((r) => r.detail)).toEqual(['', 'one', 'two, again'])
    expect(settled[1]).toBe(shown[1])
  })
})
