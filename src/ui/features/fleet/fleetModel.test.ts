import { describe, expect, it } from 'vitest'
import type { FleetRow } from '../../../fleet/types.ts'
import {
  firstCompactionHistogram,
  linesOf,
  savingsHistogram,
  sizeVsSavings,
  sortLines,
  type FleetEntry,
} from './fleetModel.ts'
import { parseFleetQuery } from './fleetQuery.ts'

function row(item: number, before: number, after: number, extra: Partial<FleetRow> = {}): FleetRow {
  return {
    name: 'x',
    item,
    itemName: null,
    format: 'codex',
    model: 'gpt-5',
    messages: 40,
    calls: 12,
    tokens: {
      last: { before, after, saved: before - after, savedFraction: (before - after) / before },
      peak: { before, after },
    },
    cost: { before: 1, after: 0.5, saved: 0.5 },
    fired: { 'clear-tool-uses': 2 },
    firstCompactionCall: 5,
    changes: 3,
    invariantsOk: true,
    usedLater: 0,
    ...extra,
  }
}

const entry = (
  key: string,
  rows: FleetRow[],
  status: FleetEntry['status'] = 'done',
): FleetEntry => ({
  key,
  name: key,
  status,
  progress: null,
  rows,
  failure: status === 'failed' ? 'line 1, offset 0: unrecognised' : null,
})

describe('fleet lines', () => {
  const entries = [
    entry('a.jsonl', [row(0, 1000, 400)]),
    entry('multi.json', [
      row(0, 500, 500, { itemName: 'task 0' }),
      row(1, 2000, 100, { itemName: 'task 1' }),
    ]),
    entry('bad.json', [], 'failed'),
    entry('later.json', [], 'queued'),
  ]

  it('gives one line per conversation, a line per file without rows, and keeps unchanged lines', () => {
    const lines = linesOf(entries)
    expect(lines.map((l) => l.id)).toEqual([
      'a.jsonl#0',
      'multi.json#0',
      'multi.json#1',
      'bad.json',
      'later.json',
    ])
    expect(lines[1]?.name).toBe('task 0 — multi.json')
    expect(lines[2]).toMatchObject({ item: 1, name: 'task 1 — multi.json' })
    expect(lines[0]?.item).toBeNull()
    expect(linesOf(entries)[0]).toBe(lines[0])
  })

  it('sorts by a figure either way, lines without it last', () => {
    const lines = linesOf(entries)
    expect(sortLines(lines, { key: 'saved', desc: true }).map((l) => l.id)).toEqual([
      'multi.json#1',
      'a.jsonl#0',
      'multi.json#0',
      'bad.json',
      'later.json',
    ])
    expect(
      sortLines(lines, { key: 'saved', desc: false })
        .map((l) => l.id)
        .slice(0, 3),
    ).toEqual(['multi.json#0', 'a.jsonl#0', 'multi.json#1'])
  })

  it('filters with the group grammar’s syntax over conversation fields', () => {
    const lines = linesOf(entries)
    const ids = (q: string) => {
      const parsed = parseFleetQuery(q)
      if (!parsed.ok) throw new Error(parsed.message)
      return lines.filter(parsed.match).map((l) => l.id)
    }
    expect(ids('savedpct>50')).toEqual(['a.jsonl#0', 'multi.json#1'])
    expect(ids('tokens:600..2k')).toEqual(['a.jsonl#0', 'multi.json#1'])
    expect(ids('-name:multi status:done')).toEqual(['a.jsonl#0'])
    expect(ids('status:failed')).toEqual(['bad.json'])
    expect(ids('strategy:clear')).toEqual(['a.jsonl#0', 'multi.json#0', 'multi.json#1'])
    expect(ids('later')).toEqual(['later.json'])
    const bad = parseFleetQuery('saved>lots')
    expect(bad.ok).toBe(false)
    expect(parseFleetQuery('colour:red')).toMatchObject({ ok: false, position: 0 })
  })

  it('bins savings, first compactions and sizes', () => {
    const rows = [
      row(0, 1000, 1000),
      row(0, 1000, 50),
      row(0, 1000, 0, { firstCompactionCall: null }),
      row(0, 10, 5, { firstCompactionCall: 150 }),
    ]
    const s = savingsHistogram(rows)
    expect(s.map((b) => b.count)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 2])
    const f = firstCompactionHistogram(rows)
    expect(f.find((b) => b.label === '5–9')?.count).toBe(2)
    expect(f.find((b) => b.label === '100–199')?.count).toBe(1)
    expect(f.find((b) => b.label === 'never')?.count).toBe(1)
    // Short axis labels (issue 16: `100–199` and `500–999` ran into each other at 1280×720).
    expect(f.map((b) => b.tick)).toEqual([
      '1',
      '2',
      '5',
      '10',
      '20',
      '50',
      '100',
      '200',
      '500',
      '1k+',
      'never',
    ])
    expect(f.map((b) => b.label).slice(0, 2)).toEqual(['1', '2–4'])
    expect(s.map((b) => b.tick)[2]).toBe('20–30')
    const points = sizeVsSavings(linesOf([entry('z', [row(0, 0, 0), row(1, 100, 50)])]))
    expect(points).toEqual([{ id: 'z#1', size: 100, saved: 50 }])
    // Conversations on the same spot are one dot: 100/50 and 101/50 (1/60 decade apart is 2.3 %).
    const same = linesOf([entry('y', [row(0, 100, 50), row(1, 101, 50), row(2, 200, 100)])])
    expect(sizeVsSavings(same).map((p) => p.id)).toEqual(['y#0', 'y#2'])
  })
})
