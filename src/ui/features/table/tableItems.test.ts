import { describe, expect, it } from 'vitest'
import type { GroupDetail, RowFetch, RunView } from '../../../store/index.ts'
import { buildRows, createRowCache, inRange, type GroupRow } from './groupRows.ts'
import { itemIndexOf, subRowsOf, tableItems } from './tableItems.ts'

function summary(): RunView {
  return {
    groups: {
      ids: ['g:system', 'gu1', 'ga1'],
      kinds: ['system', 'user', 'tool_call'],
      status: ['protected', 'kept', 'stubbed'],
      tokensBefore: Float64Array.from([50, 10, 900]),
      tokensAfter: Float64Array.from([50, 10, 40]),
      roles: ['system', 'user', 'assistant'],
      tools: ['', '', 'Read'],
      resources: ['', '', 'src/a.ts'],
      turns: Int32Array.from([0, 1, 1]),
      firstMessage: Int32Array.from([-1, 0, 1]),
      messageCounts: Int32Array.from([1, 1, 2]),
    },
    // One decision, as the run reply's columns carry it.
    decisions: {
      length: 1,
      kinds: ['stub'],
      kind: Uint8Array.from([0]),
      strategies: ['supersede'],
      strategy: Uint16Array.from([0]),
      reasons: ['stale_result'],
      reason: Uint16Array.from([0]),
      step: Int32Array.from([0]),
      detail: ['newer read'],
      groupId: ['ga1'],
      tokensBefore: Float64Array.from([900]),
      tokensAfter: Float64Array.from([40]),
      round: Int32Array.from([-1]),
      fixed: {},
    },
  } as unknown as RunView
}

function detail(): GroupDetail {
  const part = (kind: 'text' | 'tool_call' | 'tool_result', text: string) => ({
    kind,
    label: kind === 'text' ? '' : 'Read · c1',
    text,
    chars: text.length,
    truncated: false,
    tokens: 7,
  })
  return {
    groupId: 'ga1',
    before: [
      {
        id: 'm1',
        index: 1,
        role: 'assistant',
        parts: [part('text', 'Reading\n  the file'), part('tool_call', '{"path":"src/a.ts"}')],
        tokens: 20,
        raw: '',
        rawChars: 0,
      },
      {
        id: 'm2',
        index: 2,
        role: 'tool',
        parts: [part('tool_result', 'x'.repeat(400))],
        tokens: 9,
        raw: '',
        rawChars: 0,
      },
      { id: 'm3', index: 3, role: 'user', parts: [], tokens: 3, raw: '', rawChars: 0 },
    ],
    after: null,
  } as unknown as GroupDetail
}

/** The same group after a run that stubbed its tool result. */
function stubbed(): GroupDetail {
  const base = detail()
  const [m1, m2] = base.before
  const stub = {
    kind: 'tool_result' as const,
    label: 'Read · c1',
    text: '[stale result removed: a newer read exists]',
    chars: 43,
    truncated: false,
    tokens: 9,
    replaced: true,
  }
  return { ...base, after: [m1!, { ...m2!, parts: [stub] }] } as GroupDetail
}

describe('rows of the grouped table', () => {
  it('carry the per-group facts and the explaining decision', () => {
    const rows = buildRows(summary())
    expect(rows[2]).toMatchObject({
      id: 'ga1',
      role: 'assistant',
      tool: 'Read',
      resource: 'src/a.ts',
      turn: 1,
      firstMessage: 1,
      messageCount: 2,
      reason: 'stale_result',
      strategy: 'supersede',
    })
  })

  it('a brush keeps groups with a message in range, never the system prompt', () => {
    const [system, user, tool] = buildRows(summary()) as [GroupRow, GroupRow, GroupRow]
    expect(inRange(system, { from: 0, to: 99 })).toBe(false)
    expect(inRange(user, { from: 0, to: 0 })).toBe(true)
    expect(inRange(tool, { from: 2, to: 5 })).toBe(true)
    expect(inRange(tool, { from: 3, to: 5 })).toBe(false)
    expect(inRange(user, { from: 1, to: 1 })).toBe(false)
  })
})

describe('the row cache', () => {
  it('keeps the objects of unchanged groups, and the array when nothing changed', () => {
    const rowsOf = createRowCache()
    const first = rowsOf(summary())
    expect(rowsOf(summary())).toBe(first)
    const base = summary()
    const edited = {
      ...base,
      groups: { ...base.groups, status: ['protected', 'excluded', 'stubbed'] },
    } as RunView
    const second = rowsOf(edited)
    expect(second).not.toBe(first)
    expect(second[0]).toBe(first[0])
    expect(second[1]).not.toBe(first[1])
    expect(second[1]?.status).toBe('excluded')
    expect(second[2]).toBe(first[2])
  })
})

describe('table items', () => {
  const rows = buildRows(summary())

  it('are the rows alone when nothing is expanded', () => {
    const items = tableItems(rows, new Set(), new Map())
    expect(items.map((i) => i.type)).toEqual(['group', 'group', 'group'])
    expect(itemIndexOf(items, 'ga1')).toBe(2)
    expect(itemIndexOf(items, 'nope')).toBe(-1)
  })

  it('put a note, then the parts, under an expanded row', () => {
    const open = new Set(['gu1', 'ga1'])
    const fetched = new Map<string, RowFetch>([
      ['gu1', { state: 'error', message: 'not built yet' }],
    ])
    const loading = tableItems(rows, open, fetched)
    expect(loading.map((i) => (i.type === 'note' ? i.tone : i.type))).toEqual([
      'group',
      'group',
      'error',
      'group',
      'loading',
    ])
    const ready = tableItems(rows, open, new Map([['ga1', { state: 'ready', detail: detail() }]]))
    const parts = ready.filter((i) => i.type === 'part')
    expect(parts).toHaveLength(4)
    expect(itemIndexOf(ready, 'ga1')).toBe(3)
    const groups = ready.filter((i) => i.type === 'group')
    expect(groups.map((g) => g.position)).toEqual([0, 1, 2])
  })

  it('a stubbed group shows its replacement first, the original one switch away', () => {
    const open = new Set(['ga1'])
    const fetched = new Map<string, RowFetch>([['ga1', { state: 'ready', detail: stubbed() }]])
    const first = tableItems(rows, open, fetched)
    const side = first.find((i) => i.type === 'side')
    expect(side).toMatchObject({ groupId: 'ga1', side: 'replacement' })
    const texts = first.flatMap((i) => (i.type === 'part' ? [i.sub.text] : []))
    expect(texts).toContain('[stale result removed: a newer read exists]')
    expect(texts.some((t) => t.startsWith('xxx'))).toBe(false)
    const replaced = first.flatMap((i) => (i.type === 'part' && i.sub.replaced ? [i.sub] : []))
    expect(replaced).toHaveLength(1)

    const original = tableItems(rows, open, fetched, new Set(['ga1']))
    expect(original.find((i) => i.type === 'side')).toMatchObject({ side: 'original' })
    const originalTexts = original.flatMap((i) => (i.type === 'part' ? [i.sub.text] : []))
    expect(originalTexts.some((t) => t.startsWith('xxx'))).toBe(true)
    // A group with nothing replaced has no switch.
    expect(
      tableItems(rows, open, new Map([['ga1', { state: 'ready', detail: detail() }]])).some(
        (i) => i.type === 'side',
      ),
    ).toBe(false)
  })

  it('sub-rows: role on a message’s first part, one line, at most 300 characters', () => {
    const subs = subRowsOf(detail())
    expect(subs.map((s) => [s.role, s.firstOfMessage, s.partKind])).toEqual([
      ['assistant', true, 'text'],
      ['assistant', false, 'tool_call'],
      ['tool', true, 'tool_result'],
      ['user', true, 'empty'],
    ])
    expect(subs[0]?.text).toBe('Reading the file')
    expect(subs[2]?.text).toHaveLength(300)
    expect(subs[2]?.truncated).toBe(true)
    expect(new Set(subs.map((s) => s.key)).size).toBe(subs.length)
  })
})
