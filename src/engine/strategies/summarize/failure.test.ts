import { describe, expect, it } from 'vitest'
import type { Message } from '../../model.ts'
import type { SummaryRequest } from '../../summarize/types.ts'
import { summarizeStrategy } from '../summarize.ts'
import {
  assistant,
  conversation,
  failingSummarizer,
  harness,
  ofKind,
  okSummarizer,
  partText,
  reasons,
  run,
  text,
  user,
} from './testing.ts'
import { detailOf } from '../../compaction/sentence.ts'

const chars = (n: number, c = 'x') => c.repeat(n)

/** Six 400-char messages, one group each: 103 tokens apiece, 621 in all with request framing. */
function six() {
  return conversation([
    user('u0', chars(400)),
    assistant('a1', chars(400)),
    user('u2', chars(400)),
    assistant('a3', chars(400)),
    user('u4', chars(400)),
    assistant('a5', chars(400)),
  ])
}

describe('summarize — failure', () => {
  it('hard case 23: summariser throws → falai truncation fallback, decisions recorded', async () => {
    const s = failingSummarizer('throw')
    const h = harness(six(), { summarizer: s })
    expect(h.view.totalTokens).toBe(621)
    const ctx = await run(summarizeStrategy, h, { maxTokens: 500, preserveRecentMessages: 2 })
    expect(s.calls).toBe(1)
    expect(reasons(ctx)).toEqual([
      'skip:summary_failed:gu0',
      'skip:below_threshold:ga3',
      'exclude:truncation:gu0',
      'exclude:truncation:ga1',
      'exclude:truncation:gu2',
    ])
    expect(detailOf(ctx.decisions[0])).toBe(
      'Summary failed (provider unavailable (HTTP 503)); falling back to aggressive truncation of the oldest groups (falai)',
    )
    expect(detailOf(ctx.decisions[4])).toContain(
      'because the summary failed (provider unavailable (HTTP 503))',
    )
    expect(detailOf(ctx.decisions[4])).toContain('this group did not fit')
    expect(h.view.totalTokens).toBe(312)
    expect(h.view.summaries()).toHaveLength(0)
  })

  it('faithful fallback measures with falai’s estimate and drops the same groups here', async () => {
    const h = harness(six(), { summarizer: failingSummarizer('error') })
    const ctx = await run(summarizeStrategy, h, {
      maxTokens: 500,
      preserveRecentMessages: 2,
      faithful: true,
    })
    expect(ofKind(ctx, 'exclude').map((d) => d.groupId)).toEqual(['gu0', 'ga1', 'gu2'])
    expect(detailOf(ctx.decisions[0])).toContain('Summary failed (rate limited)')
  })

  it('no summariser configured → truncation fallback too', async () => {
    const h = harness(six())
    const ctx = await run(summarizeStrategy, h, { maxTokens: 500, preserveRecentMessages: 2 })
    expect(detailOf(ctx.decisions[0])).toContain('no summariser is configured')
    expect(ofKind(ctx, 'exclude')).toHaveLength(3)
  })

  it("onFailure 'fail_open' leaves history unchanged (MAF / opencode)", async () => {
    const h = harness(six(), { summarizer: failingSummarizer('throw') })
    const ctx = await run(summarizeStrategy, h, {
      maxTokens: 500,
      preserveRecentMessages: 2,
      onFailure: 'fail_open',
    })
    expect(reasons(ctx)).toEqual(['skip:summary_failed:gu0'])
    expect(detailOf(ctx.decisions[0])).toContain('history left unchanged (fail-open)')
    expect(h.view.totalTokens).toBe(621)
  })

  it('an empty summary is a failure (fixed) but inserted as is by faithful falai', async () => {
    const fixed = harness(six(), { summarizer: failingSummarizer('empty') })
    const f = await run(summarizeStrategy, fixed, {
      maxTokens: 500,
      preserveRecentMessages: 2,
      onFailure: 'fail_open',
    })
    expect(detailOf(f.decisions[0])).toContain(
      'Summary failed (the summariser returned an empty summary) — falai would have inserted the empty summary',
    )
    const faithful = harness(six(), { summarizer: failingSummarizer('empty') })
    await run(summarizeStrategy, faithful, {
      maxTokens: 500,
      preserveRecentMessages: 2,
      faithful: true,
    })
    expect(faithful.view.summaries()[0]?.message.parts).toEqual([
      { kind: 'text', text: '[Conversation Summary]\n  ' },
    ])
  })

  it('hard case 20: an oversized newest group is kept even though the context stays over budget', async () => {
    const conv = conversation([
      user('u0', chars(400)),
      assistant('a1', chars(400)),
      user('u2', chars(4000)),
    ])
    const h = harness(conv, { summarizer: failingSummarizer('throw') })
    const ctx = await run(summarizeStrategy, h, { maxTokens: 500, preserveRecentMessages: 1 })
    expect(ofKind(ctx, 'exclude').map((d) => d.groupId)).toEqual(['gu0', 'ga1'])
    expect(h.view.isExcluded(2)).toBe(false)
    expect(h.view.totalTokens).toBe(1006) // still over 400: reported, never emptied
  })
})

describe('summarize — input bound and iteration', () => {
  it('hard case 24: an oversized first group is skipped, selection stops at the first that does not fit', async () => {
    const conv = conversation([
      user('u0', chars(4000)),
      assistant('a1', chars(400)),
      user('u2', chars(400)),
      assistant('a3', chars(400)),
      user('u4', chars(400)),
      assistant('a5', 'latest'),
    ])
    const s = okSummarizer()
    const h = harness(conv, { summarizer: s })
    const ctx = await run(summarizeStrategy, h, {
      compactionThreshold: null,
      preserveRecentGroups: 1,
      prompt: 'Summarize.',
      maxSummaryInputTokens: 250, // 247 after the 3-token prompt: two 103-token groups fit
      placement: 'at_first_covered',
      role: 'assistant',
      onFailure: 'fail_open',
    })
    expect(reasons(ctx)).toEqual([
      'skip:denied_by_policy:gu0',
      'skip:denied_by_policy:ga3',
      'exclude:summarized:ga1',
      'exclude:summarized:gu2',
      'insert:summarized:ga1',
    ])
    expect(detailOf(ctx.decisions[0])).toContain('alone exceeds the summariser input budget')
    expect(s.requests[0]?.messages.map((m) => m.id)).toEqual(['a1', 'u2'])
    expect(h.view.summaries()[0]?.anchor).toBe(1)
    expect(h.view.isExcluded(0)).toBe(false)
  })

  it('hard case 25: a second compaction carries the first summary forward, never as user text', async () => {
    const earlier: Message = {
      ...text('system', 's0', '[Conversation Summary]\nEarlier the user asked for a parser.'),
      summaryOf: { strategy: 'summarize', groups: ['gu0'] },
    }
    const conv = conversation([
      earlier,
      user('u1', chars(400)),
      assistant('a2', chars(400)),
      user('u3', 'next'),
      assistant('a4', 'ok'),
    ])
    const s = okSummarizer('Parser written and tested.')
    const h = harness(conv, { summarizer: s })
    const ctx = await run(summarizeStrategy, h, { maxTokens: 100, preserveRecentMessages: 2 })
    const req = s.requests[0] as SummaryRequest
    expect(req.previousSummary).toBe('Earlier the user asked for a parser.')
    expect(req.messages.map((m) => m.id)).toEqual(['u1', 'a2'])
    expect(ofKind(ctx, 'insert')[0]?.covers).toEqual(['gs0', 'gu1', 'ga2'])
    expect(detailOf(ofKind(ctx, 'insert')[0])).toContain('carrying 1 earlier summary(ies) forward')
    expect(h.view.isExcluded(0)).toBe(true)
    expect(partText(h.view, 3)).toBe('next')
  })

  it('a falai-style summary imported as a plain message is recognised by its prefix', async () => {
    const conv = conversation([
      user('u0', chars(400)),
      assistant('a1', '[Conversation Summary]\nOld facts.'),
      user('u2', chars(400)),
      user('u3', 'x'),
      assistant('a4', 'y'),
    ])
    const s = okSummarizer()
    const h = harness(conv, { summarizer: s })
    await run(summarizeStrategy, h, { maxTokens: 100, preserveRecentMessages: 2 })
    expect(s.requests[0]?.previousSummary).toBe('Old facts.')
    expect(s.requests[0]?.messages.map((m) => m.id)).toEqual(['u0', 'u2'])
  })
})
