import { describe, expect, it } from 'vitest'
import type { FleetRow } from '../../../fleet/types.ts'
import { compareRows, sweepPoints } from './studyModel.ts'

function row(name: string, before: number, after: number, usedLater = 0): FleetRow {
  return {
    name,
    item: 0,
    itemName: null,
    format: 'codex',
    model: null,
    messages: 4,
    calls: 2,
    tokens: {
      last: { before, after, saved: before - after, savedFraction: (before - after) / before },
      peak: { before, after },
    },
    cost: { before: null, after: null, saved: null },
    fired: {},
    firstCompactionCall: null,
    changes: 0,
    invariantsOk: true,
    usedLater,
  }
}

describe('fleet studies', () => {
  it('puts the conversations where two configs differ most first', () => {
    const a = [row('x', 100, 90), row('y', 100, 50), row('z', 100, 100), row('only-a', 100, 0)]
    const b = [row('x', 100, 80), row('y', 100, 95, 2), row('z', 100, 100, 1)]
    const rows = compareRows(a, b)
    expect(rows.map((r) => [r.name, r.delta])).toEqual([
      ['y', -45],
      ['x', 10],
      ['z', 0],
    ])
  })

  it('gives a sweep point per value: median and p90 saved, risk, invalid values said', () => {
    const points = sweepPoints([
      {
        variant: { label: '1', value: 1, config: null },
        rows: [row('x', 100, 50), row('y', 100, 100, 3)],
        failed: 0,
        invalid: null,
      },
      {
        variant: { label: '2', value: 2, config: null },
        rows: [],
        failed: 2,
        invalid: 'window: too small',
      },
    ])
    expect(points[0]).toMatchObject({
      value: 1,
      conversations: 2,
      median: 25,
      p90: 45,
      usedLater: 3,
    })
    expect(points[1]).toMatchObject({
      conversations: 0,
      median: null,
      invalid: 'window: too small',
    })
  })
})
