import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { prepare } from '../../compaction/prepared.ts'
import type { Message, Part, ToolResultPart } from '../../model.ts'
import { call, conv, messages, NO_FRAMING, result, wordCounter } from '../truncation/testing.ts'
import {
  ERROR_RESULT,
  NOT_RESULT,
  RESULT,
  clearedAt,
  isSummaryAt,
  summaryArrivesIn,
  walkFacts,
} from './walk-facts.ts'

/**
 * The walk reads its facts from typed arrays made once per conversation; these must say exactly
 * what reading the message and part objects says. The oracles below read the objects the way the
 * walk did before the arrays existed (opencode envelopes, turn starts, names, estimates, cleared).
 */

const CLEARED = '[Old tool result content cleared]'

const messageArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), injected: fc.boolean() }),
  fc.record({
    kind: fc.constant('assistant' as const),
    /** An opencode message id shared by the steps of one message (few ids: repeats). */
    msgId: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    envelope: fc.boolean(),
    ownSummary: fc.boolean(),
    calls: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    results: fc.array(
      fc.record({
        named: fc.boolean(),
        body: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(CLEARED), fc.constant('stub!')),
        error: fc.boolean(),
        compacted: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
)

type Spec = typeof messageArb extends fc.Arbitrary<infer T> ? T : never

function build(specs: readonly Spec[]): Message[] {
  const m = messages()
  const out: Message[] = []
  let seq = 0
  for (const s of specs) {
    if (s.kind === 'user') {
      out.push(m('user', 'task', s.injected ? { injected: true } : {}))
    } else if (s.kind === 'assistant') {
      const parts: Part[] = [{ kind: 'text', text: 'step' }]
      for (let i = 0; i < s.calls; i++) parts.push(call(`c${++seq}`, i % 2 ? 'read' : 'bash'))
      const source =
        s.msgId === undefined
          ? undefined
          : { msgId: `o${s.msgId}`, ...(s.envelope ? { info: { summary: true } } : {}) }
      out.push(
        m('assistant', parts, {
          ...(source ? { source } : {}),
          ...(s.ownSummary ? { summaryOf: { strategy: 'summarize', groups: ['g0'] } } : {}),
        }),
      )
    } else {
      const parts = s.results.map((r, i) => {
        const part = result(`c${seq - i}`, r.body, r.named ? 'grep' : undefined) as ToolResultPart
        return {
          ...part,
          isError: r.error,
          ...(r.compacted ? { meta: { compacted: true } } : {}),
        } as Part
      })
      out.push(m('tool', parts))
    }
  }
  return out
}

type Source = { info?: { summary?: unknown }; msgId?: unknown } | undefined

function oracleSummary(messagesList: readonly Message[], m: number, limit: number): boolean {
  const ids = new Set<string>()
  for (let j = 0; j < limit; j++) {
    const source = messagesList[j]?.source as Source
    if (source?.info?.summary === true && typeof source.msgId === 'string') ids.add(source.msgId)
  }
  const msg = messagesList[m] as Message
  if (msg.summaryOf) return true
  if (msg.role !== 'assistant') return false
  const source = msg.source as Source
  if (source?.info?.summary === true) return true
  return typeof source?.msgId === 'string' && ids.has(source.msgId)
}

const oracleTurn = (msg: Message) =>
  msg.role === 'user' &&
  !msg.injected &&
  !msg.summaryOf &&
  !msg.parts.some((p) => p.kind === 'tool_result')

describe('walk facts', () => {
  it('say what the message and part objects say', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(CLEARED, 'stub!', 'gone'),
        (specs, placeholder) => {
          const list = build(specs)
          const prepared = prepare(conv(list), wordCounter, { framing: NO_FRAMING })
          const { calls, results } = prepared.grouping.pairing
          const facts = walkFacts(prepared, callNamesByPart(prepared))
          // A message a walk at one limit read (it lies below the limit) as no boundary, and one
          // at a later limit: exactly what `summaryArrivesIn` answers for that pair of limits (the
          // replay's reuse of earlier readings rests on it).
          for (let from = 0; from <= list.length; from++)
            for (let to = from; to <= list.length; to++) {
              const flips = list.some(
                (_, m) => m < from && !oracleSummary(list, m, from) && oracleSummary(list, m, to),
              )
              expect(summaryArrivesIn(facts, from, to)).toBe(flips)
            }
          for (let m = 0; m < list.length; m++) {
            const msg = list[m] as Message
            expect(facts.turnStart[m] === 1).toBe(oracleTurn(msg))
            for (let limit = 0; limit <= list.length; limit++)
              expect(isSummaryAt(facts, m, limit)).toBe(oracleSummary(list, m, limit))
            msg.parts.forEach((part, i) => {
              const k = (facts.index.offset[m] as number) + i
              if (part.kind !== 'tool_result') {
                expect(facts.result[k]).toBe(NOT_RESULT)
                return
              }
              expect(facts.result[k]).toBe(part.isError ? ERROR_RESULT : RESULT)
              expect(facts.parts[k]).toBe(part)
              const text = part.content.map((c) => (c.kind === 'text' ? c.text : '')).join('\n')
              expect(facts.estimate[k]).toBe(Math.max(0, Math.round(text.length / 4)))
              const r = results.find((x) => x.message === m && x.part === i)
              const callName = r && r.call >= 0 ? (calls[r.call]?.name ?? '') : ''
              expect(facts.names[k]).toBe(part.name || callName)
              expect(clearedAt(facts, k, placeholder)).toBe(
                part.meta?.compacted === true || text === placeholder || text === CLEARED,
              )
            })
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

/** The call name of every flat part, from the pairing (what falai.ts `callNamesOf` gives). */
function callNamesByPart(prepared: ReturnType<typeof prepare>): string[] {
  const { calls, results } = prepared.grouping.pairing
  const messagesList = prepared.conversation.messages
  const names: string[] = []
  for (let m = 0; m < messagesList.length; m++)
    (messagesList[m] as Message).parts.forEach((_, i) => {
      const r = results.find((x) => x.message === m && x.part === i)
      names.push(r && r.call >= 0 ? (calls[r.call]?.name ?? '') : '')
    })
  return names
}
