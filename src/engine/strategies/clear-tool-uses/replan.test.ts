import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Message } from '../../model.ts'
import { conv, NO_FRAMING, result, wordCounter } from '../truncation/testing.ts'
import { toolUses } from './plan.ts'
import { planAll, rulesOf } from './plan-use.ts'
import { includedUses, INPUT, planRows, RESULT } from './replan.ts'
import { useTableOf } from './table.ts'
import { build, PLACEHOLDER, roundArb, TOOLS } from './uses.testing.ts'

/**
 * A re-plan reads the uses as columns (replan.ts) instead of planning use by use (plan-use.ts).
 * Whatever earlier steps did to the view (stubs, a result already cleared, dropped groups) and
 * whatever the params say, both must list the same uses, record the same skips in the same order
 * and plan the same edits with the same replacement objects, prices and savings.
 */
describe('clear-tool-uses re-plan rows', () => {
  it('equal the general plan', () => {
    fc.assert(
      fc.property(
        fc.array(roundArb, { minLength: 1, maxLength: 14 }),
        fc.array(fc.record({ stub: fc.boolean(), pick: fc.nat(), cleared: fc.boolean() }), {
          maxLength: 6,
        }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom<boolean | string[]>(false, true, ['read'], ['bash', 'grep']),
        fc.subarray([...TOOLS]),
        fc.constantFrom(PLACEHOLDER, '[gone]'),
        fc.nat(),
        (rounds, changes, keep, recentTurns, clearToolInputs, excludeTools, placeholder, cut) => {
          const conversation = conv(build(rounds))
          const prepared = prepare(conversation, wordCounter, { framing: NO_FRAMING })
          const n = conversation.messages.length
          const view = new WorkingView(prepared, 1 + (cut % n))
          // What earlier steps did: stub a result (to the placeholder or to another text), drop
          // a group.
          for (const c of changes) {
            const visible = prepared.grouping.pairing.results.filter((r) => r.message < view.limit)
            const groups = view.visibleGroups().filter((g) => g.messages.length > 0)
            if (c.stub && visible.length > 0) {
              const r = visible[c.pick % visible.length] as (typeof visible)[number]
              view.replace(r, result(null, c.cleared ? placeholder : 'stub'), 1, 'other')
            } else if (!c.stub && groups.length > 0)
              view.exclude((groups[c.pick % groups.length] as (typeof groups)[number]).index)
          }
          const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, recentTurns })
          const window = { contextTokens: 1000, reservedOutput: 0, buffer: 0, usable: 1000 }
          const context = () =>
            new StrategyContext(view, protections, 'clear-tool-uses', 0, window, undefined)
          const rules = rulesOf({ excludeTools, clearToolInputs, placeholder })

          const general = context()
          const uses = toolUses(general)
          const older = Math.max(0, uses.length - keep)
          const edits = planAll(general, rules, uses.slice(0, older))

          const columns = context()
          const table = useTableOf(columns)
          expect(table.regular).toBe(true)
          const list = includedUses(columns, table)
          expect([...list].map((i) => table.callMessage[i])).toEqual(
            uses.map((u) => u.info.message),
          )
          expect([...list].map((i) => table.group[i])).toEqual(uses.map((u) => u.group))
          const rows = planRows(columns, rules, table, list.subarray(0, older))

          expect(columns.decisions).toEqual(general.decisions)
          expect(rows.length).toBe(edits.length)
          expect(rows.saves).toBe(edits.reduce((t, e) => t + e.saves, 0))
          edits.forEach((e, k) => {
            expect(rows.ref[k]).toBe(e.ref)
            expect(rows.replacement[k]).toBe(e.replacement)
            expect(rows.what[k]).toBe(e.what === 'result' ? RESULT : INPUT)
            expect(table.group[rows.use[k] as number]).toBe(e.group)
            expect(table.tools[table.tool[rows.use[k] as number] as number]).toBe(e.tool)
            const m = conversation.messages[e.ref.message] as Message
            expect(rows.tokens[k]).toBe(view.price(e.replacement, m.role, m.model))
          })
        },
      ),
      { numRuns: 300 },
    )
  })
})
