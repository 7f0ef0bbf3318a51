/**
 * The flat per-group facts (group-facts.ts) answer two questions the group objects answered
 * before: is a group out of the current call's context, and does it hold a pending call. Both
 * must agree with the object walk at every replay limit, over conversations with sidechains,
 * upstream compaction markers, calls answered late, twice or never.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  assistant,
  call,
  conv,
  counter,
  tool,
  user,
  words,
} from '../accounting/accounting.testing.ts'
import type { Message, UpstreamMarker } from '../model.ts'
import { groupFactsOf, MIXED } from './group-facts.ts'
import type { ContextLedger } from './ledger.ts'
import { prepare } from './prepared.ts'
import { isPendingCall } from './protect-whole.ts'
import { WorkingView } from './view.ts'

type Step =
  | { readonly kind: 'user'; readonly side: boolean }
  | { readonly kind: 'calls'; readonly n: number; readonly side: boolean }
  | { readonly kind: 'answer'; readonly pick: number; readonly side: boolean }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), side: fc.boolean() }),
  fc.record({
    kind: fc.constant('calls' as const),
    n: fc.integer({ min: 1, max: 3 }),
    side: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), side: fc.boolean() }),
)

/** Messages from the steps: an answer names one of the calls made so far (possibly again). */
function build(steps: readonly Step[]): Message[] {
  const calls: string[] = []
  return steps.map((s, i): Message => {
    const extra = s.side ? { sidechain: 'agent-x' } : {}
    if (s.kind === 'user') return user(`u${i}`, words(5), extra)
    if (s.kind === 'calls') {
      const ids = Array.from({ length: s.n }, (_, k) => `c${i}-${k}`)
      for (const id of ids) calls.push(id)
      return assistant(`a${i}`, ids.map(call), extra)
    }
    const id = calls.length > 0 ? (calls[s.pick % calls.length] as string) : 'none'
    return tool(`t${i}`, id, words(8), extra)
  })
}

const ledgerOf = (view: WorkingView) => (view as unknown as { ledger: ContextLedger }).ledger

describe('per-group facts', () => {
  it('property: out of context and pending calls as the group objects say, at every limit', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (steps, markAt) => {
          const messages = build(steps)
          const markers: UpstreamMarker[] = [...new Set(markAt.map((m) => m % messages.length))]
            .sort((a, b) => a - b)
            .map((beforeIndex) => ({
              kind: 'upstream_compaction',
              beforeIndex,
              origin: 'claude-code-boundary',
            }))
          const p = prepare(conv('anthropic-messages', messages, { markers }), counter)
          const { groups, pairing } = p.grouping
          const facts = groupFactsOf(p)
          for (let limit = 0; limit <= messages.length; limit++) {
            const view = new WorkingView(p, limit)
            for (let g = 0; g < view.visibleGroupCount; g++) {
              const slow = ledgerOf(view).outOfContext(view.messagesOf(g))
              expect(view.outOfContext(g)).toBe(slow)
            }
            for (const [g, group] of groups.entries()) {
              if (facts.callMessage[g] === MIXED) continue
              const pending = group.calls.some((c) => isPendingCall(pairing, limit, c))
              const message = facts.callMessage[g] as number
              const fromFacts =
                message >= 0 && message < limit && (facts.answeredAt[g] as number) >= limit
              expect(fromFacts).toBe(pending)
            }
          }
        },
      ),
      { numRuns: 200 },
    )
  })
})
