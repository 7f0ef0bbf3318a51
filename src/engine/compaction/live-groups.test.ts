import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { liveGroups, lowestLiveMessage } from './live-groups.ts'
import { prepare, type Prepared } from './prepared.ts'
import { WorkingView } from './view.ts'

/** 12 user/assistant turns: one group each, after the system group. */
const messages: Message[] = Array.from({ length: 24 }, (_, i) => ({
  id: `m${i}`,
  role: i % 2 === 0 ? 'user' : 'assistant',
  parts: [{ kind: 'text', text: `message ${i}` }],
}))
const conv: Conversation = {
  meta: { format: 'openai-chat' },
  system: [{ kind: 'text', text: 'system' }],
  tools: [],
  messages,
  markers: [],
}

type Op =
  | { readonly kind: 'advance'; readonly by: number }
  | { readonly kind: 'exclude'; readonly group: number }
  | { readonly kind: 'checkpoint' }
  | { readonly kind: 'rollback' }
  | { readonly kind: 'read' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.integer({ min: 0, max: 5 }).map((by) => ({ kind: 'advance' as const, by })),
  fc.integer({ min: 0, max: 30 }).map((group) => ({ kind: 'exclude' as const, group })),
  fc.constant({ kind: 'checkpoint' as const }),
  fc.constant({ kind: 'rollback' as const }),
  fc.constant({ kind: 'read' as const }),
)

/** Carry out one operation on the view (`marks`: the checkpoints a rollback goes back to). */
function apply(view: WorkingView, o: Op, marks: number[]): void {
  if (o.kind === 'advance') view.advanceTo(view.limit + o.by)
  else if (o.kind === 'exclude') {
    if (o.group < view.visibleGroupCount) view.exclude(o.group)
  } else if (o.kind === 'checkpoint') marks.push(view.checkpoint())
  else if (o.kind === 'rollback') {
    const mark = marks.pop()
    if (mark !== undefined) view.rollback(mark)
  }
}

/** Carry out `ops` in turn on a fresh view of `prepared`, calling `check` after each. */
function afterEachOp(
  prepared: Prepared,
  ops: readonly Op[],
  check: (view: WorkingView, o: Op) => void,
): void {
  const view = new WorkingView(prepared, 0)
  const marks: number[] = []
  for (const o of ops) {
    apply(view, o, marks)
    check(view, o)
  }
}

describe('liveGroups', () => {
  it('is always the visible groups that are not excluded, in order', () => {
    const prepared = prepare(conv, estimateCounter)
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        afterEachOp(prepared, ops, (view, o) => {
          // Read after some operations only: the list must also catch up over several changes.
          if (o.kind !== 'read') return
          const expected = view
            .visibleGroups()
            .map((g) => g.index)
            .filter((g) => !view.isExcluded(g))
          expect([...liveGroups(view)]).toEqual(expected)
        })
      }),
      { numRuns: 300 },
    )
  })

  it('gives a first live message below which every visible message is excluded', () => {
    // Calls whose results come later, after other groups' messages: groups interleave.
    const parts = (i: number): Message['parts'] =>
      i % 3 === 1
        ? [{ kind: 'tool_call', callId: `c${i}`, name: 'read', argsRaw: '{}', args: {} }]
        : i % 3 === 0 && i > 0
          ? [
              {
                kind: 'tool_result',
                callId: `c${i - 5 > 0 ? i - 5 : i - 2}`,
                content: [{ kind: 'text', text: 'out' }],
                isError: false,
              },
            ]
          : [{ kind: 'text', text: `message ${i}` }]
    const interleaved: Conversation = {
      ...conv,
      messages: Array.from({ length: 30 }, (_, i) => ({
        id: `m${i}`,
        role: i % 3 === 1 ? 'assistant' : i % 3 === 0 && i > 0 ? 'tool' : 'user',
        parts: parts(i),
      })),
    }
    for (const c of [conv, interleaved]) {
      const prepared = prepare(c, estimateCounter)
      const { groupOfMessage } = prepared.grouping
      fc.assert(
        fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
          afterEachOp(prepared, ops, (view) => {
            const lowest = lowestLiveMessage(view)
            for (let m = 0; m < Math.min(lowest, view.limit); m++)
              expect(view.isExcluded(groupOfMessage[m] as number)).toBe(true)
            if (lowest < view.limit)
              expect(view.isExcluded(groupOfMessage[lowest] as number)).toBe(false)
          })
        }),
        { numRuns: 200 },
      )
    }
  })
})
