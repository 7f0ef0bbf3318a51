import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import { conv, NO_FRAMING, result, wordCounter } from '../truncation/testing.ts'
import { carriedPlan } from './carried.ts'
import { toolUses, type Edit } from './plan.ts'
import { planAll, rulesOf } from './plan-use.ts'
import { build, PLACEHOLDER, roundArb } from './uses.testing.ts'

/**
 * Replay carries each older use's plan from call to call and redoes only what a change or a
 * reveal touched. Whatever happens between calls (other steps stubbing or dropping, rollbacks,
 * the carried edits applied, calls where the strategy did not run), the carried plan must be the
 * plan made from scratch at that call.
 */

type Action =
  | { readonly kind: 'none' }
  | { readonly kind: 'skip-call' }
  | { readonly kind: 'stub'; readonly pick: number }
  | { readonly kind: 'exclude'; readonly pick: number }
  | { readonly kind: 'rollback'; readonly pick: number }
  | { readonly kind: 'apply' }

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.constant({ kind: 'skip-call' as const }),
  fc.nat().map((pick) => ({ kind: 'stub' as const, pick })),
  fc.nat().map((pick) => ({ kind: 'exclude' as const, pick })),
  fc.nat().map((pick) => ({ kind: 'rollback' as const, pick })),
  fc.constant({ kind: 'apply' as const }),
)

const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(1, list.length)]

const shape = (edits: readonly Edit[]) =>
  edits.map((e) => [e.ref.message, e.ref.part, e.what, e.saves, e.group])

describe('clear-tool-uses carried plan', () => {
  it('equals the plan made from scratch at every replay call', () => {
    fc.assert(
      fc.property(
        fc.array(roundArb, { minLength: 1, maxLength: 14 }),
        fc.array(actionArb, { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 3 }),
        (rounds, actions, keep, recentTurns, clearInputs, restarts) => {
          const built = build(rounds)
          // Upstream compactions restart the context (a group becomes their summary).
          const markers = [...new Set(restarts.map((r) => r % built.length))]
            .sort((x, y) => x - y)
            .map((beforeIndex) => ({
              kind: 'upstream_compaction' as const,
              beforeIndex,
              origin: 'codex-compacted' as const,
            }))
          const conversation = { ...conv(built), markers }
          const prepared = prepare(conversation, wordCounter, { framing: NO_FRAMING })
          const view = new WorkingView(prepared, 0)
          const params = {
            excludeTools: ['skill'],
            clearToolInputs: clearInputs ? ['read'] : false,
            placeholder: PLACEHOLDER,
          }
          const rules = rulesOf(params)
          const window = { contextTokens: 1000, reservedOutput: 0, buffer: 0, usable: 1000 }
          const n = conversation.messages.length
          for (let limit = 1; limit <= n; limit++) {
            view.advanceTo(limit)
            const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, recentTurns })
            const ctx = new StrategyContext(
              view,
              protections,
              'clear-tool-uses',
              0,
              window,
              undefined,
            )
            ctx.recordNonChanges = false
            const action = actions[limit % actions.length] as Action
            const visibleResults = prepared.grouping.pairing.results.filter(
              (r) => r.message < limit,
            )
            const groups = view.visibleGroups()
            // What other steps do before this one: stub a result, drop a group, or try and undo.
            if (action.kind === 'stub' || action.kind === 'rollback') {
              const checkpoint = view.checkpoint()
              const r = pick(visibleResults, action.pick)
              if (r) view.replace(r, result(null, 'stub'), 1, 'other')
              if (action.kind === 'rollback') view.rollback(checkpoint)
            }
            if (action.kind === 'exclude') {
              const g = pick(groups, action.pick)
              if (g && g.messages.length > 0) view.exclude(g.index)
            }
            if (action.kind === 'skip-call') continue
            const carried = carriedPlan(ctx, rules, keep)
            const uses = toolUses(ctx)
            const cut = Math.max(0, uses.length - keep)
            const scratch = planAll(ctx, rules, uses.slice(0, cut))
            expect(carried.uses).toBe(uses.length)
            expect(carried.cut).toBe(cut)
            expect(carried.editCount).toBe(scratch.length)
            expect(carried.clearable).toBe(scratch.reduce((t, e) => t + e.saves, 0))
            expect(shape(carried.edits())).toEqual(shape(scratch))
            if (action.kind === 'apply')
              for (const e of carried.edits())
                ctx.replace(e.ref, e.replacement, 'stub', 'tool_use_cleared', 'test', {
                  allowGrowth: true,
                })
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
