import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Message, Part } from '../../model.ts'
import { pruneToolOutputsStrategy, type PruneToolOutputsParams } from '../prune-tool-outputs.ts'
import { call, conv, messages, NO_FRAMING, result, wordCounter } from '../truncation/testing.ts'
import { walk, type PruneCandidate } from './walk.ts'

/**
 * Replay carries the prune frontier from call to call: each call appends what it walked past and
 * only a call that clears rebuilds it. Whatever happens between calls (other steps stubbing or
 * dropping, rollbacks, calls where the step did not run, its own clearing), the walk over the
 * carried frontier must give exactly what the full walk gives at that call.
 */

const PLACEHOLDER = '[Old tool result content cleared]'
const TOOLS = ['read', 'grep', 'skill', 'bash'] as const
/** One opencode message id for every summary and the assistant messages sharing its envelope. */
const ENVELOPE = 'envelope'

/** One round: maybe a user turn, then an assistant message with 1–2 calls and their results. */
const roundArb = fc.record({
  /** A user turn starts the round (one in three: a replay walk reuses the recent turns' reading). */
  user: fc.constantFrom(true, false, false),
  /** An opencode summary (`summary: true`) before this round: a boundary for the walk. */
  summary: fc.constantFrom(false, false, false, false, false, false, false, false, true),
  /**
   * The summary's role: opencode's are assistant messages, but the flag on any message of the
   * envelope makes its assistant messages boundaries (walk-facts.ts), calls after they were read.
   */
  summaryRole: fc.constantFrom('assistant' as const, 'assistant' as const, 'tool' as const),
  /**
   * The round's assistant message is part of the summary envelope (same opencode message id): it
   * becomes a boundary once the envelope's summary message is visible, maybe calls later.
   */
  envelope: fc.constantFrom(false, false, false, false, false, true),
  calls: fc.array(
    fc.record({
      tool: fc.constantFrom(...TOOLS),
      chars: fc.integer({ min: 0, max: 90 }),
      state: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'error', 'cleared', 'pending'),
    }),
    { minLength: 1, maxLength: 2 },
  ),
})

type Round = typeof roundArb extends fc.Arbitrary<infer T> ? T : never

type Action =
  | { readonly kind: 'none' }
  | { readonly kind: 'skip-call' }
  | { readonly kind: 'stub'; readonly pick: number }
  | { readonly kind: 'exclude'; readonly pick: number }
  | { readonly kind: 'rollback'; readonly pick: number }

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'skip-call' as const }) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'stub' as const, pick })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'exclude' as const, pick })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'rollback' as const, pick })) },
)

function build(rounds: readonly Round[]): Message[] {
  const m = messages()
  const out: Message[] = [m('user', 'start')]
  let seq = 0
  for (const r of rounds) {
    if (r.summary)
      out.push(
        m(r.summaryRole, 'summary of the work so far', {
          source: { msgId: ENVELOPE, info: { role: 'assistant', summary: true } },
        }),
      )
    if (r.user) out.push(m('user', 'next task'))
    const calls: Part[] = []
    const results: Part[] = []
    for (const c of r.calls) {
      const id = `c${++seq}`
      calls.push(call(id, c.tool, { path: `f${seq}.ts` }))
      if (c.state === 'pending') continue
      // Words, so that the placeholder (5 words) is cheaper than most outputs under the word
      // counter and clearing applies in fixed mode too; outputs under 12 characters stay cheaper
      // than it, and their clearing is refused (kept as live outputs older than a cleared one).
      const body = c.state === 'cleared' ? PLACEHOLDER : 'x '.repeat(c.chars >> 1)
      const part = result(id, body, c.tool)
      results.push(
        c.state === 'error' && part.kind === 'tool_result' ? { ...part, isError: true } : part,
      )
    }
    out.push(
      r.envelope
        ? m('assistant', calls, { source: { msgId: ENVELOPE, info: { role: 'assistant' } } })
        : m('assistant', calls),
    )
    if (results.length > 0) out.push(m('tool', results))
  }
  return out
}

const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(1, list.length)]

const shape = (cs: readonly PruneCandidate[]) =>
  cs.map((c) => [c.ref.message, c.ref.part, c.group, c.name, c.estimate, c.pastCompacted ?? null])

describe('prune-tool-outputs carried frontier', () => {
  it('gives the full walk’s candidates, total and pruned tokens at every replay call', () => {
    fc.assert(
      fc.property(
        fc.array(roundArb, { minLength: 1, maxLength: 60 }),
        fc.array(actionArb, { minLength: 40, maxLength: 40 }),
        fc.record({
          protectTokens: fc.integer({ min: 0, max: 60 }),
          minimumTokens: fc.integer({ min: 0, max: 40 }),
          protectTurns: fc.integer({ min: 0, max: 2 }),
          faithful: fc.boolean(),
        }),
        fc.integer({ min: 0, max: 2 }),
        (rounds, actions, options, recentTurns) => {
          const conversation = conv(build(rounds))
          const prepared = prepare(conversation, wordCounter, { framing: NO_FRAMING })
          const view = new WorkingView(prepared, 0)
          // One params object for the whole replay, as the pipeline passes it (the frontier is
          // kept per view and params).
          const params: PruneToolOutputsParams = pruneToolOutputsStrategy.schema.parse({
            ...options,
            placeholder: PLACEHOLDER,
          }) as PruneToolOutputsParams
          const window = { contextTokens: 1000, reservedOutput: 0, buffer: 0, usable: 1000 }
          const n = conversation.messages.length
          for (let limit = 1; limit <= n; limit++) {
            view.advanceTo(limit)
            const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, recentTurns })
            const contextOf = (record: boolean) => {
              const ctx = new StrategyContext(
                view,
                protections,
                'prune-tool-outputs',
                0,
                window,
                undefined,
              )
              ctx.recordNonChanges = record
              return ctx
            }
            const action = actions[limit % actions.length] as Action
            const visibleResults = prepared.grouping.pairing.results.filter(
              (r) => r.message < limit,
            )
            // What other steps do before this one: stub a result, drop a group, or try and undo.
            if (action.kind === 'stub' || action.kind === 'rollback') {
              const checkpoint = view.checkpoint()
              const r = pick(visibleResults, action.pick)
              if (r) view.replace(r, result(null, 'stub'), 1, 'other')
              if (action.kind === 'rollback') view.rollback(checkpoint)
            }
            if (action.kind === 'exclude') {
              const g = pick(view.visibleGroups(), action.pick)
              if (g && g.messages.length > 0) view.exclude(g.index)
            }
            if (action.kind === 'skip-call') continue
            const replay = contextOf(false)
            const carried = walk(replay, params)
            // Recording non-changes never reads the frontier: the full walk.
            const scratch = walk(contextOf(true), params)
            expect(carried.count).toBe(scratch.count)
            expect(carried.total).toBe(scratch.total)
            expect(carried.pruned).toBe(scratch.pruned)
            expect(shape(carried.candidates())).toEqual(shape(scratch.candidates()))
            // The step itself: clears (or not) and brings the frontier up to date.
            void pruneToolOutputsStrategy.run(replay, params)
          }
        },
      ),
      { numRuns: 400 },
    )
  })
})
