import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { prepare, type Prepared } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import { WorkingView } from '../../compaction/view.ts'
import { estimateCounter } from '../../tokens/index.ts'
import {
  supersedeStaleResultsSchema,
  supersedeStaleResultsStrategy as strategy,
  type SupersedeStaleResultsParams,
} from '../supersede-stale-results.ts'
import { conversation, exchange, user } from './fixtures.ts'

/**
 * A re-plan over one prepared conversation reuses what was read from it (collect.ts: records, and
 * an untouched view's whole collection). Whatever is reused, the decisions must be exactly those
 * of a first run over a freshly prepared copy — for the same params and for edited ones, each run
 * with its own params object as every edit in the app gives the engine.
 */
const big = (tag: string) => `${tag} `.repeat(600)
const conv = conversation([
  user('read, search, run, edit'),
  exchange('read_file', { path: 'a.ts' }, big('a1')),
  exchange('grep', { pattern: 'todo', path: 'src' }, big('g1')),
  exchange('bash', { command: 'npm test' }, big('t1')),
  exchange('read_file', { path: 'b.ts' }, 'short'),
  user('again'),
  exchange('read_file', { path: 'a.ts' }, big('a2')),
  exchange('grep', { pattern: 'todo', path: 'src' }, big('g2')),
  exchange('bash', { command: 'npm test' }, big('t2')),
  exchange('read_file', { path: 'b.ts' }, 'short too'),
  exchange('read_file', { path: 'c.ts' }, big('c1')),
  exchange('edit_file', { path: 'c.ts', old: 'x', new: 'y' }, 'ok'),
  user('once more'),
  exchange('read_file', { path: 'a.ts' }, big('a3')),
  exchange('read_file', { path: 'a.ts' }, big('a4'), { say: 'and once more' }),
])

function runOnce(
  prepared: Prepared,
  p: SupersedeStaleResultsParams,
  view = new WorkingView(prepared),
) {
  const ctx = new StrategyContext(
    view,
    computeProtections(view, DEFAULT_PROTECTIONS),
    strategy.id,
    0,
    { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 },
    undefined,
  )
  strategy.run(ctx, p)
  return ctx.decisions
}

/** A new params object per run, as every edit in the app hands the engine. */
const parse = (params: object) => supersedeStaleResultsSchema.parse(params)

describe('supersede-stale-results: re-plans over one prepared conversation', () => {
  it('decide exactly as a first run, for the same and for edited params', () => {
    const prepared = prepare(conv, estimateCounter)
    const edits = [
      {},
      { stubTemplate: '[COMPACTED] {tool} output for {resource}: {tokens} tokens gone' },
      { maxStubsPerResource: null, minToolOutputTokens: 0 },
      { faithful: true, tokenThreshold: 0 },
      { writesMakeStale: false, preserveLastN: 2 },
      {},
      // One field at a time: a value's first run takes the acts of the last value where they
      // would be worded the same (words.ts), and must still decide exactly as a first run.
      { minToolOutputTokens: 200 },
      { minToolOutputTokens: 0 },
      { preserveLastN: 2 },
      { preserveLastN: 3 },
      { maxStubsPerResource: 2 },
      { redactResourceIdentifiers: true },
      { stubTemplate: '[COMPACTED] {tool} output for {resource}: {tokens} tokens gone' },
      {},
    ]
    for (const params of edits) {
      const fresh = runOnce(prepare(conv, estimateCounter), parse(params))
      expect(fresh.some((d) => d.kind === 'stub' || d.kind === 'exclude')).toBe(true)
      // Twice over the shared prepared conversation: the second run reuses what the first read.
      expect(runOnce(prepared, parse(params))).toEqual(fresh)
      expect(runOnce(prepared, parse(params))).toEqual(fresh)
    }
  })

  it('a replay over the same conversation leaves the plans re-plans share as they were', () => {
    const prepared = prepare(conv, estimateCounter)
    const n = conv.messages.length
    for (const params of [{}, { faithful: true, tokenThreshold: 0 }]) {
      const fresh = runOnce(prepare(conv, estimateCounter), parse(params))
      // A re-plan keeps its plan and sentences on the collection (shared.ts)…
      expect(runOnce(prepared, parse(params))).toEqual(fresh)
      // …a replay starts from an untouched view at the full limit, takes that plan, then stubs
      // and re-plans on its one view at every call: what it carries must be its own copy.
      const view = new WorkingView(prepared, 0)
      const q = parse(params)
      for (const limit of [n - 6, n - 3, n]) {
        view.advanceTo(limit)
        runOnce(prepared, q, view)
      }
      expect(view.changeMark).toBeGreaterThan(0)
      expect(runOnce(prepared, parse(params))).toEqual(fresh)
      // A view at the full limit from the start: shares the re-plan's plan, then goes on.
      const full = new WorkingView(prepared)
      runOnce(prepared, q, full)
      runOnce(prepared, q, full)
      expect(runOnce(prepared, parse(params))).toEqual(fresh)
      // Another template words that plan afresh: from the outcomes a first run gets.
      const worded = {
        ...params,
        stubTemplate: '[COMPACTED] {resource} ({tokens} tokens) is older',
      }
      expect(runOnce(prepared, parse(worded))).toEqual(
        runOnce(prepare(conv, estimateCounter), parse(worded)),
      )
    }
  })

  it('another stub template shares the records only where it reads them the same', () => {
    const mine = '[MINE] {resource} was replaced by a newer read'
    // A result that is already a stub of `mine`: fresh under the default template, a stub under it.
    const stubbed = conversation([
      user('read twice'),
      exchange('read_file', { path: 'a.ts' }, '[MINE] a.ts was replaced by a newer read'),
      exchange('read_file', { path: 'a.ts' }, big('a2')),
      exchange('read_file', { path: 'b.ts' }, big('b1')),
      user('again'),
      exchange('read_file', { path: 'a.ts' }, big('a3')),
      exchange('read_file', { path: 'b.ts' }, big('b2')),
    ])
    for (const c of [conv, stubbed]) {
      const prepared = prepare(c, estimateCounter)
      for (const params of [{}, { stubTemplate: mine }, {}, { stubTemplate: mine }]) {
        const fresh = runOnce(prepare(c, estimateCounter), parse(params))
        expect(runOnce(prepared, parse(params))).toEqual(fresh)
      }
    }
  })
})
