import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SAFE_ALLOWED, SAFE_DENIED } from '../supersede-stale-results.ts'
import type { ToolCategory } from './categories.ts'
import type { ResourceIdentity } from './identity.ts'
import { PlanIndex } from './plan-index.ts'
import { plan, type Occurrence, type Outcome, type PlanParams } from './plan.ts'

/**
 * Replay carries a PlanIndex from call to call: results appended, results redone in place (a
 * stub applied). Whatever the order, its outcomes must be those of planning the final list at
 * once — the whole-conversation plan every non-replay run makes.
 */

const FILES = ['a.ts', 'b.ts', 'c.ts']

/** Reads of lines of a file by `tool`: keyed by file and range, whatever the tool. */
function rangedRead(tool: string, category: ToolCategory) {
  return fc
    .tuple(
      fc.constantFrom(...FILES),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 0, max: 3 }),
    )
    .map(([f, start, len]) => ({
      identity: {
        tool,
        primary: f,
        secondary: [`${start}-${start + len}`],
        key: `read:${f}:${start}-${start + len}`,
        fullReadKey: `read:${f}`,
        reads: [f],
        lines: { kind: 'lines', start, end: start + len },
      } satisfies ResourceIdentity,
      tool,
      category,
    }))
}

const identityArb: fc.Arbitrary<{
  identity: ResourceIdentity | null
  tool: string
  category: ToolCategory
}> = fc.oneof(
  fc.constantFrom(...FILES).map((f) => ({
    identity: {
      tool: 'read_file',
      primary: f,
      secondary: [],
      key: `read:${f}`,
      isFullRead: true,
      reads: [f],
      lines: { kind: 'lines', start: 1, end: null },
    } satisfies ResourceIdentity,
    tool: 'read_file',
    category: 'file_read' as const,
  })),
  rangedRead('read_file', 'file_read'),
  fc.constantFrom(...FILES).map((f) => ({
    identity: {
      tool: 'edit_file',
      primary: f,
      secondary: [],
      key: `edit:${f}`,
      writes: [f],
    } satisfies ResourceIdentity,
    tool: 'edit_file',
    category: 'file_write' as const,
  })),
  // A shell read of lines of a file: the same key as the reader tool's, another tool and a denied
  // category (so a key's first result and a later one are judged by different policies).
  rangedRead('bash', 'command_execution'),
  fc.constantFrom('ls', 'npm test').map((c) => ({
    identity: { tool: 'bash', primary: c, secondary: [], key: `bash:${c}` },
    tool: 'bash',
    category: (c === 'ls' ? 'list_dir' : 'test_execution') as ToolCategory,
  })),
  fc.constant({ identity: null, tool: 'bash', category: 'command_execution' as ToolCategory }),
)

const itemArb = fc.record({
  id: identityArb,
  state: fc.constantFrom('fresh', 'fresh', 'fresh', 'stub', 'modified') as fc.Arbitrary<
    Occurrence['state']
  >,
  empty: fc.boolean(),
  measure: fc.integer({ min: 0, max: 600 }),
})

const paramsArb: fc.Arbitrary<PlanParams> = fc.record({
  faithful: fc.boolean(),
  preserveLastN: fc.integer({ min: 1, max: 3 }),
  maxStubsPerResource: fc.constantFrom(null, 1, 2),
  minToolOutputTokens: fc.constantFrom(0, 250),
  writesMakeStale: fc.boolean(),
  allowedCategories: fc.constant([...SAFE_ALLOWED]),
  deniedCategories: fc.constant([...SAFE_DENIED]),
  allowedTools: fc.constant([]),
  deniedTools: fc.constant([]),
})

interface Item {
  readonly id: { identity: ResourceIdentity | null; tool: string; category: ToolCategory }
  readonly state: Occurrence['state']
  readonly empty: boolean
  readonly measure: number
}
const occurrence = (x: Item, index: number, state = x.state): Occurrence => ({
  index,
  group: index,
  tool: x.id.tool,
  category: x.id.category,
  identity: x.id.identity,
  state,
  empty: x.empty,
  measure: x.measure,
})

/** The default policy lists, one result kept, a size floor of 250. */
const SAFE_PARAMS: PlanParams = {
  faithful: false,
  preserveLastN: 1,
  maxStubsPerResource: null,
  minToolOutputTokens: 250,
  writesMakeStale: false,
  allowedCategories: [...SAFE_ALLOWED],
  deniedCategories: [...SAFE_DENIED],
  allowedTools: [],
  deniedTools: [],
}

/** Lines `start`-`end` (1-2) of a.ts read by `tool`: one key per range whatever the tool. */
const ranged = (tool: string, category: ToolCategory, start = 1, end = 2): Item['id'] => ({
  identity: {
    tool,
    primary: 'a.ts',
    secondary: [`${start}-${end}`],
    key: `read:a.ts:${start}-${end}`,
    fullReadKey: 'read:a.ts',
    reads: ['a.ts'],
    lines: { kind: 'lines', start, end },
  },
  tool,
  category,
})

const item = (id: Item['id']): Item => ({ id, state: 'fresh', empty: false, measure: 600 })
const SHELL_READ = ranged('bash', 'command_execution')
const READ = ranged('read_file', 'file_read')
/** Fresh results of these identities, at indexes 0, 1, … */
const occurrencesOf = (...ids: Item['id'][]): Occurrence[] =>
  ids.map((id, i) => occurrence(item(id), i))

/**
 * The carried plan's outcomes are the whole plan's; with `changesOnly` (a replay, which reads the
 * changes alone), its changes are: the same results to stub or drop, with the same outcomes.
 */
function expectWholePlan(index: PlanIndex, whole: readonly Outcome[], changesOnly: boolean): void {
  const stale = whole.flatMap((o, i) => (o.kind === 'stub' || o.kind === 'drop' ? [i] : []))
  expect(index.stale()).toEqual(stale)
  if (!changesOnly) expect(index.out).toEqual(whole)
  else for (const i of stale) expect(index.out[i]).toEqual(whole[i])
}

describe('PlanIndex carried across calls', () => {
  it.each([false, true])(
    'appending in chunks and redoing results in place gives the whole plan (changes only: %s)',
    (changesOnly) => {
      fc.assert(
        fc.property(
          paramsArb,
          fc.array(itemArb, { minLength: 1, maxLength: 40 }),
          fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
          fc.array(fc.nat(), { maxLength: 12 }),
          (p, items, chunks, redos) => {
            const list = items.map((x, i) => occurrence(x, i))
            const index = new PlanIndex(p, undefined, changesOnly)
            let at = 0
            let step = 0
            while (at < list.length) {
              const n = chunks[step % chunks.length] as number
              // Between appends, stub a few earlier results the way a replay step would.
              const redo = redos
                .slice(step, step + 2)
                .map((r) => (at > 0 ? r % at : -1))
                .filter((r) => r >= 0 && (list[r] as Occurrence).state === 'fresh')
              const swapped = [...new Set(redo)].map((r) => {
                const o = { ...(list[r] as Occurrence), state: 'stub' as const }
                list[r] = o
                return o
              })
              if (swapped.length > 0) index.replace(swapped)
              index.append(list.slice(at, at + n))
              at += n
              step++
              expectWholePlan(index, plan(list.slice(0, at), p), changesOnly)
            }
          },
        ),
        { seed: 20261127, numRuns: 400 },
      )
    },
  )

  it.each([false, true])(
    'dropping the results from some index on, then appending others, gives the whole plan (changes only: %s)',
    (changesOnly) => {
      fc.assert(
        fc.property(
          paramsArb,
          fc.array(itemArb, { minLength: 1, maxLength: 40 }),
          fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.nat(), fc.nat()), {
            minLength: 1,
            maxLength: 10,
          }),
          (p, items, steps) => {
            // The conversation's results as the replay sees them: some leave (a dropped group),
            // the ones after them come back with new indexes, new ones arrive.
            let list: Item[] = []
            let next = 0
            const index = new PlanIndex(p, undefined, changesOnly)
            for (const [n, cutAt, removeCount] of steps) {
              const cut = list.length > 0 ? cutAt % (list.length + 1) : 0
              const kept = [
                ...list.slice(0, cut),
                ...list.slice(cut + (removeCount % 3)),
                ...items.slice(next, next + n),
              ]
              next += n
              index.truncate(cut)
              index.append(kept.slice(cut).map((x, i) => occurrence(x, cut + i)))
              list = kept
              const whole = plan(
                list.map((x, i) => occurrence(x, i)),
                p,
              )
              expectWholePlan(index, whole, changesOnly)
            }
          },
        ),
        { seed: 20261127, numRuns: 400 },
      )
    },
  )

  it("changes only: a result denied by the policy for its key's first result is stubbed once a later full read makes it stale by its own", () => {
    const p = SAFE_PARAMS
    const full: Item['id'] = {
      identity: {
        tool: 'read_file',
        primary: 'a.ts',
        secondary: [],
        key: 'read:a.ts',
        isFullRead: true,
        reads: ['a.ts'],
        lines: { kind: 'lines', start: 1, end: null },
      },
      tool: 'read_file',
      category: 'file_read',
    }
    const list = occurrencesOf(SHELL_READ, READ, READ, full)
    const index = new PlanIndex(p, undefined, true)
    index.append(list.slice(0, 3))
    // Stale by the newer read, judged by the key's first result (a denied shell read).
    expect(index.out[1]?.kind).toBe('denied')
    index.append(list.slice(3))
    expectWholePlan(index, plan(list, p), true)
    expect(index.out[1]?.kind).toBe('stub')
  })

  it("changes only: a result the policy denies is stubbed by its key's newer results when the key's first result is allowed", () => {
    const list = occurrencesOf(READ, SHELL_READ, READ)
    const index = new PlanIndex(SAFE_PARAMS, undefined, true)
    for (const o of list) index.append([o])
    expectWholePlan(index, plan(list, SAFE_PARAMS), true)
    expect(index.out[1]?.kind).toBe('stub')
  })

  it("changes only: a key's first result redone as one the policy judges otherwise opens the results it judged", () => {
    const list = occurrencesOf(SHELL_READ, SHELL_READ, READ)
    const index = new PlanIndex(SAFE_PARAMS, undefined, true)
    index.append(list)
    expect(index.stale()).toEqual([])
    const redone = occurrence(item(READ), 0)
    list[0] = redone
    index.replace([redone])
    expectWholePlan(index, plan(list, SAFE_PARAMS), true)
    expect(index.out[1]?.kind).toBe('stub')
  })

  it('changes only: a read collected again after a cut, at an index a memo had scanned, is found covering', () => {
    const p = { ...SAFE_PARAMS, minToolOutputTokens: 0 }
    const narrow = ranged('read_file', 'file_read', 5, 6)
    const list = occurrencesOf(narrow, ranged('read_file', 'file_read', 20, 30))
    const index = new PlanIndex(p, undefined, true)
    index.append(list)
    // Nothing later covers lines 5-6: the memo has scanned up to index 1.
    expect(index.stale()).toEqual([])
    // A dropped group takes the result at index 1; this call's new read lands there.
    index.truncate(1)
    const after = [
      list[0] as Occurrence,
      occurrence(item(ranged('read_file', 'file_read', 1, 10)), 1),
    ]
    index.append(after.slice(1))
    expectWholePlan(index, plan(after, p), true)
    expect(index.out[0]?.kind).toBe('stub')
  })

  it('a plan borrowing the lists of another plan of the same occurrences decides as a whole plan', () => {
    fc.assert(
      fc.property(
        paramsArb,
        paramsArb,
        fc.array(itemArb, { minLength: 1, maxLength: 40 }),
        (lenderParams, p, items) => {
          const list = items.map((x, i) => occurrence(x, i))
          // Lists are built under the mode and writesMakeStale only (see PlanStructure).
          const q = { ...lenderParams, faithful: p.faithful, writesMakeStale: p.writesMakeStale }
          const lender = new PlanIndex(q)
          lender.addAll(list)
          const before = plan(list, q)
          const index = PlanIndex.borrowing(p, lender.structure)
          expect(index.out).toEqual(plan(list, p))
          expect(index.stale()).toEqual(
            index.out.flatMap((o, i) => (o.kind === 'stub' || o.kind === 'drop' ? [i] : [])),
          )
          // The lender is left as it was.
          expect(lender.out).toEqual(before)
        },
      ),
      { seed: 20261127, numRuns: 400 },
    )
  })
})
