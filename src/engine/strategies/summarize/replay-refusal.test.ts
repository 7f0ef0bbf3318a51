import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../../compaction/context.ts'
import { summarizeStrategy } from '../summarize.ts'
import { assistant, conversation, harness, okSummarizer, user, type Harness } from './testing.ts'

const chars = (n: number, c = 'x') => c.repeat(n)

/**
 * Six 400-char messages, one group each; the third is stubbed as a copy of the first, so the
 * first's group holds a newest copy a stub relies on and a summary covering it is refused.
 */
function setUp() {
  const summarizer = okSummarizer()
  const h = harness(
    conversation([
      user('u0', chars(400)),
      assistant('a1', chars(400)),
      user('u2', chars(400)),
      assistant('a3', chars(400)),
      user('u4', chars(400)),
      assistant('a5', chars(400)),
    ]),
    { summarizer },
  )
  const window = { contextTokens: 500, reservedOutput: 0, buffer: 0, usable: 500 }
  const stubber = new StrategyContext(h.view, h.protections, 'stubber', 0, window, undefined)
  stubber.replace(
    { message: 2, part: 0 },
    { kind: 'text', text: 'same as the first message' },
    'stub',
    'superseded',
    'a copy of u0',
    { newer: { message: 0, part: 0 } },
  )
  return { h, summarizer, window }
}

async function summarise(
  h: Harness,
  window: { contextTokens: number; reservedOutput: number; buffer: number; usable: number },
  replay: boolean,
  onFailure: 'truncate' | 'fail_open',
) {
  const ctx = new StrategyContext(h.view, h.protections, 'summarize', 1, window, h.summarizer)
  ctx.recordNonChanges = !replay
  const params = { maxTokens: 500, preserveRecentMessages: 2, onFailure }
  await summarizeStrategy.run(ctx, summarizeStrategy.schema.parse(params))
  return ctx
}

describe('summarize in a replay: a summary the insert would refuse', () => {
  it('is not written when nothing could change (fail-open): the view is as it was', async () => {
    const { h, summarizer, window } = setUp()
    expect(h.view.holdsNewestCopy(h.view.prepared.grouping.groupOfMessage[0] as number)).toBe(true)
    const before = h.view.contextTokens
    const ctx = await summarise(h, window, true, 'fail_open')
    expect(summarizer.requests).toHaveLength(0)
    expect(ctx.decisions).toEqual([])
    expect(h.view.contextTokens).toBe(before)
    expect(h.view.summaries()).toHaveLength(0)
  })

  it('is written, and refused, when a failure would truncate or when non-changes are recorded', async () => {
    const truncating = setUp()
    const before = truncating.h.view.contextTokens
    await summarise(truncating.h, truncating.window, true, 'truncate')
    expect(truncating.summarizer.requests).toHaveLength(1)
    expect(truncating.h.view.contextTokens).toBe(before)

    const recorded = setUp()
    const ctx = await summarise(recorded.h, recorded.window, false, 'fail_open')
    expect(recorded.summarizer.requests).toHaveLength(1)
    expect(ctx.decisions.map((d) => `${d.kind}:${d.reason}`)).toContain('protected:protected')
    expect(recorded.h.view.summaries()).toHaveLength(0)
  })
})
