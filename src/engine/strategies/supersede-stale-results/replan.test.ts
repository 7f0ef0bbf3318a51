import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import { estimateCounter } from '../../tokens/index.ts'
import {
  supersedeStaleResultsSchema,
  supersedeStaleResultsStrategy as strategy,
} from '../supersede-stale-results.ts'
import { collectResults } from './collect.ts'
import { collectionVersion } from './collection-log.ts'
import { conversation, exchange, user } from './fixtures.ts'
import { planResults } from './replan.ts'
import { LIP_STUB_TEMPLATE, stubMatcher, stubPart } from './stub.ts'

/**
 * Replay collects the tool results at every model call on one view; each collection made from
 * the previous one is a version in the view's log, so a planner can carry its plan forward over
 * any number of calls. The log holds positions, never records: links from a collection to the
 * one before held every earlier collection of a replay alive (calls × results — out of memory on
 * 130 copies of a Codex rollout).
 */
const big = (tag: string) => `${tag} `.repeat(400)
const conv = conversation([
  user('read the files'),
  exchange('read_file', { path: 'a.ts' }, big('a1')),
  exchange('read_file', { path: 'b.ts' }, big('b1')),
  user('again'),
  exchange('read_file', { path: 'a.ts' }, big('a2')),
  exchange('read_file', { path: 'c.ts' }, big('c1')),
  user('once more'),
  exchange('read_file', { path: 'b.ts' }, big('b2')),
  exchange('read_file', { path: 'a.ts' }, big('a3')),
])

/** One parsed params object, as the pipeline hands every run of one config (plans are kept per it). */
const p = supersedeStaleResultsSchema.parse({})

function replayOn(prepared = prepare(conv, estimateCounter)) {
  const view = new WorkingView(prepared, 0)
  const ctx = new StrategyContext(
    view,
    computeProtections(view, DEFAULT_PROTECTIONS),
    strategy.id,
    0,
    { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 },
    undefined,
  )
  const isStub = stubMatcher(LIP_STUB_TEMPLATE)
  /** Reveal messages up to `limit`, collect and plan as a replay call does. */
  const call = (limit: number) => {
    view.advanceTo(limit)
    const results = collectResults(ctx, isStub)
    return { results, outcomes: planResults(view, results, p).out.map((o) => o.kind) }
  }
  return { view, ctx, call }
}

/** The group of message `m` in a view. */
const groupOf = (view: WorkingView, m: number) => view.prepared.grouping.groupOfMessage[m] as number

describe('supersede-stale-results: plans carried across replay calls', () => {
  it("each collection is the next version in its view's log, which holds no records", () => {
    const { call } = replayOn()
    const first = call(5)
    const second = call(10)
    const third = call(15)
    const [v1, v2, v3] = [first, second, third].map((c) => collectionVersion(c.results))
    expect([v1?.version, v2?.version, v3?.version]).toEqual([0, 1, 2])
    expect(v2?.log).toBe(v1?.log)
    expect(v3?.log).toBe(v1?.log)
    // Positions and cuts only: nothing in the log keeps an earlier collection alive.
    expect(v3?.log.edits.map((e) => Object.keys(e).sort())).toEqual([
      ['cut', 'redone'],
      ['cut', 'redone'],
    ])
    expect(third.outcomes).toEqual(['drop', 'stub', 'stub', 'single', 'newest', 'newest'])
  })

  it("a plan carried over calls it sat out equals a fresh plan (the faithful twin's case)", () => {
    const { view, call } = replayOn()
    const twin = { ...p, faithful: true }
    planResults(view, call(5).results, twin) // the view's first plan: a shared one
    const planned = planResults(view, call(10).results, twin)
    call(12)
    call(13)
    const third = call(15)
    const carried = planResults(view, third.results, twin)
    // Carried in place over the two collections it did not plan, not planned afresh…
    expect(carried).toBe(planned)
    // …to the very outcomes of a fresh plan.
    const fresh = replayOn()
    fresh.view.advanceTo(15)
    const again = planResults(fresh.view, fresh.call(15).results, twin)
    expect(carried.out).toEqual(again.out)
  })

  it('a touched view brings its own collection up to date in place; its plan is a fresh one', () => {
    const { view, call } = replayOn()
    call(5)
    call(10)
    view.exclude(groupOf(view, 5)) // the user message "again": the view is no longer pristine
    const copied = call(13) // the first collection after the change: a copy of the pristine one
    const v13 = collectionVersion(copied.results)?.version
    const grown = call(15)
    // The same array, one version on (a copy per call was proportional to every result before).
    expect(grown.results).toBe(copied.results)
    expect(collectionVersion(grown.results)?.version).toBe((v13 ?? -1) + 1)
    const fresh = replayOn()
    fresh.view.advanceTo(15)
    fresh.view.exclude(groupOf(fresh.view, 5))
    expect(grown.outcomes).toEqual(fresh.call(15).outcomes)
  })

  it('a collection shared.ts keeps plans on is copied, never changed in place', () => {
    const { view, call } = replayOn()
    view.advanceTo(10)
    view.exclude(groupOf(view, 5)) // touched before the first collection: it is the view's own
    const first = call(10) // …and its first plan is kept in shared.ts on it
    const records = [...first.results]
    const second = call(15)
    expect(second.results).not.toBe(first.results)
    expect(first.results).toEqual(records)
  })

  it('the carried plan equals a fresh plan of the same results', () => {
    const { call } = replayOn()
    call(5)
    call(10)
    const carried = call(15)
    const fresh = replayOn().call(15)
    expect(carried.outcomes).toEqual(fresh.outcomes)
  })

  it('a dropped group that held no tool result keeps the collection; one that held one starts over', () => {
    const { view, call } = replayOn()
    call(5)
    const second = call(10)
    view.exclude(groupOf(view, 5)) // the user message "again"
    const third = call(15)
    expect(collectionVersion(third.results)?.log).toBe(collectionVersion(second.results)?.log)
    view.exclude(groupOf(view, 1)) // the first read of a.ts
    const fourth = call(15)
    // Collected afresh: a new log starts at it.
    expect(collectionVersion(fourth.results)?.log).not.toBe(collectionVersion(third.results)?.log)
    expect(collectionVersion(fourth.results)?.version).toBe(0)
    expect(fourth.results.map((r) => r.ref.message)).toEqual([4, 7, 9, 12, 14])
    // Both are what collecting afresh over the same view state finds.
    const fresh = replayOn()
    fresh.view.advanceTo(15)
    fresh.view.exclude(groupOf(fresh.view, 5))
    fresh.view.exclude(groupOf(fresh.view, 1))
    expect(fresh.call(15).outcomes).toEqual(fourth.outcomes)
  })

  it('a dropped group late in the collection keeps the records before it and plans as afresh', () => {
    const { view, call } = replayOn()
    call(10)
    const before = call(15)
    view.exclude(groupOf(view, 11)) // the second read of b.ts: its record is 5th of 6
    const after = call(15)
    const at = collectionVersion(after.results)
    expect(at?.version).toBe((collectionVersion(before.results)?.version ?? -1) + 1)
    expect(at?.log.edits[(at?.version ?? 0) - 1]?.cut).toBe(4)
    expect(after.results.slice(0, 4)).toEqual(before.results.slice(0, 4))
    expect(after.results.map((r) => r.ref.message)).toEqual([2, 4, 7, 9, 14])
    const fresh = replayOn()
    fresh.view.advanceTo(15)
    fresh.view.exclude(groupOf(fresh.view, 11))
    const again = fresh.call(15)
    expect(after.outcomes).toEqual(again.outcomes)
    expect(after.outcomes).toEqual(['drop', 'single', 'stub', 'single', 'newest'])
  })

  it('an untouched view collects the very records of the last untouched view at its limit', () => {
    const prepared = prepare(conv, estimateCounter)
    const first = replayOn(prepared).call(15)
    // A re-plan: an untouched view gets the very same records (the same array)…
    const second = replayOn(prepared).call(15)
    expect(second.results).toBe(first.results)
    expect(second.outcomes).toEqual(['drop', 'stub', 'stub', 'single', 'newest', 'newest'])
    // …one at another limit or one an earlier step changed collects them anew.
    expect(replayOn(prepared).call(10).results).not.toBe(first.results)
    const changed = replayOn(prepared)
    changed.view.advanceTo(15)
    changed.view.exclude(groupOf(changed.view, 5)) // the user message "again"
    const third = changed.call(15)
    expect(third.results).not.toBe(first.results)
    expect(third.results).toEqual(first.results)
    expect(third.outcomes).toEqual(second.outcomes)
  })

  it('a later replay takes the records of an earlier one, a result fresh and stubbed alike', () => {
    const prepared = prepare(conv, estimateCounter)
    const stubbedIn = (run: ReturnType<typeof replayOn>) => {
      run.call(5)
      run.view.exclude(groupOf(run.view, 0)) // touched: later records are built, not pristine
      const fresh = run.call(10).results.find((r) => r.ref.message === 7) // a2
      if (!fresh) throw new Error('a2 not collected')
      const stub = stubPart(
        fresh.part,
        `[COMPACTED] Previous output for a.ts (1 bytes) was removed.`,
      )
      expect(run.ctx.replace(fresh.ref, stub, 'stub', 'superseded', 'test')).toBe(true)
      return { fresh, stubbed: run.call(15).results.find((r) => r.ref.message === 7) }
    }
    const a = stubbedIn(replayOn(prepared))
    const b = stubbedIn(replayOn(prepared))
    expect(a.stubbed?.fixed.state).toBe('stub')
    // Both states of the result are kept: neither is rebuilt by the other replay.
    expect(b.fresh).toBe(a.fresh)
    expect(b.stubbed).toBe(a.stubbed)
  })
})
