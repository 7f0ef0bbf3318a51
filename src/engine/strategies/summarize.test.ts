import { describe, expect, it } from 'vitest'
import type { SummaryRequest } from '../summarize/types.ts'
import { microCompactStrategy } from './micro-compact.ts'
import { FALAI_SUMMARY_PROMPT, summarizeStrategy } from './summarize.ts'
import {
  assistant,
  calls,
  conversation,
  harness,
  ofKind,
  okSummarizer,
  reasons,
  result,
  run,
  user,
  type Harness,
} from './summarize/testing.ts'
import { toolResultBudgetStrategy } from './tool-result-budget.ts'
import { detailOf } from '../compaction/sentence.ts'

const words = (n: number) => 'word   \n'.repeat(n)
const chars = (n: number, c = 'x') => c.repeat(n)

/** falai's three tiers as the lead's pipeline runs them: steps 0, 1, 2 over one view. */
async function falaiTiers(
  h: Harness,
  opts: { maxTokens: number; preserveRecentCount?: number; faithful?: boolean },
) {
  const common = { maxTokens: opts.maxTokens, faithful: opts.faithful ?? false }
  const keep = opts.preserveRecentCount ?? 4
  const budget = await run(toolResultBudgetStrategy, h, { ...common, preserveRecentCount: keep }, 0)
  const micro = await run(microCompactStrategy, h, { ...common, preserveRecentCount: keep }, 1)
  const summary = await run(summarizeStrategy, h, { ...common, preserveRecentMessages: keep }, 2)
  return { budget, micro, summary }
}

/** System prompt; u0 a1(read_file) t2(whitespace-heavy output) a3(long answer) | tail: u4 a5 u6 a7. */
function session(answerChars: number) {
  return conversation(
    [
      user('u0', 'the build fails, have a look'),
      calls('a1', [['c1', 'read_file', { path: 'build.log' }]]),
      result('t2', 'c1', 'read_file', words(2500)),
      assistant('a3', chars(answerChars, 'y')),
      user('u4', 'ok, fix it'),
      assistant('a5', 'Fixed the import.'),
      user('u6', 'thanks'),
      assistant('a7', 'Anything else?'),
    ],
    'You are a careful coding agent.',
  )
}

describe('summarize — falai tiers', () => {
  it('stops at the first tier that brings the context under the threshold', async () => {
    const s = okSummarizer()
    const h = harness(session(100), { summarizer: s })
    const { budget, micro, summary } = await falaiTiers(h, { maxTokens: 3000 })
    expect(reasons(budget)).toEqual(['trim:result_truncated:ga1'])
    expect(micro.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(summary.decisions.map((d) => d.reason)).toEqual(['below_threshold'])
    expect(s.requests).toHaveLength(0)
    expect(h.view.summaries()).toHaveLength(0)
  })

  it('runs the tiers in falai order: truncate, collapse whitespace, then summarise', async () => {
    const s = okSummarizer()
    const h = harness(session(8000), { summarizer: s })
    const { budget, micro, summary } = await falaiTiers(h, { maxTokens: 3000 })
    expect(reasons(budget)).toEqual(['trim:result_truncated:ga1'])
    expect(reasons(micro)).toEqual(['trim:whitespace_collapsed:ga1'])
    expect(reasons(summary)).toEqual([
      'skip:protected:g:system',
      'exclude:summarized:gu0',
      'exclude:summarized:ga1',
      'exclude:summarized:ga3',
      'insert:summarized:g:system',
    ])
    // the summariser got falai's prompt, 1,024 output tokens and the projected (compacted) messages
    const req = s.requests[0] as SummaryRequest
    expect(req.instructions).toBe(FALAI_SUMMARY_PROMPT)
    expect(req.maxOutputTokens).toBe(1024)
    expect(req.messages.map((m) => m.id)).toEqual(['u0', 'a1', 't2', 'a3'])
    const t2 = req.messages[2]?.parts[0]
    expect(
      t2?.kind === 'tool_result' && t2.content[0]?.kind === 'text' && t2.content[0].text,
    ).toMatch(/^word word [\s\S]*\s\[Truncated: 20000 chars total, showing first 5000\]$/)
  })

  it('hard case 22: a system summary placed first, with bidirectional links', async () => {
    const s = okSummarizer('SUMMARY')
    const h = harness(session(8000), { summarizer: s })
    const { summary } = await falaiTiers(h, { maxTokens: 3000 })
    const [inserted] = h.view.summaries()
    expect(inserted?.anchor).toBe(0) // g:system, the first group
    expect(inserted?.position).toBe('before')
    expect(inserted?.message.role).toBe('system')
    expect(inserted?.message.parts).toEqual([
      { kind: 'text', text: '[Conversation Summary]\nSUMMARY' },
    ])
    const insert = ofKind(summary, 'insert')[0]
    expect(insert?.covers).toEqual(['gu0', 'ga1', 'ga3'])
    expect(inserted?.message.summaryOf).toEqual({
      strategy: 'summarize',
      groups: ['gu0', 'ga1', 'ga3'],
    })
    // originals → summary: each exclusion names the summary; they are excluded in the same view
    for (const d of ofKind(summary, 'exclude')) expect(detailOf(d)).toContain(inserted?.message.id)
    expect(inserted?.covers.every((g) => h.view.isExcluded(g))).toBe(true)
    // fixed mode kept the system prompt and says what falai would have done
    expect(insert?.fixed).toContain('falai would also have replaced the system prompt')
    expect(h.view.isExcluded(0)).toBe(false)
  })

  it('faithful: falai summarises the system prompt away when it is not protected', async () => {
    const h = harness(session(8000), { summarizer: okSummarizer(), protections: { system: false } })
    const { summary } = await falaiTiers(h, { maxTokens: 3000, faithful: true })
    expect(ofKind(summary, 'insert')[0]?.covers).toEqual(['g:system', 'gu0', 'ga1', 'ga3'])
    const protectedRun = harness(session(8000), { summarizer: okSummarizer() })
    const p = await falaiTiers(protectedRun, { maxTokens: 3000, faithful: true })
    expect(p.summary.decisions[0]).toMatchObject({
      kind: 'skip',
      reason: 'protected',
      groupId: 'g:system',
    })
    expect(detailOf(p.summary.decisions[0])).toContain('falai replaces the system prompt')
  })

  it("placement 'at_first_covered' (MAF) anchors the summary at the first summarised group", async () => {
    const h = harness(session(8000), { summarizer: okSummarizer() })
    await run(summarizeStrategy, h, {
      maxTokens: 3000,
      placement: 'at_first_covered',
      role: 'assistant',
    })
    const [inserted] = h.view.summaries()
    expect(inserted?.anchor).toBe(1) // gu0 (the system group is 0)
    expect(inserted?.message.role).toBe('assistant')
  })

  it('hard case 18: a message-count tail inside a tool group never splits it', async () => {
    // preserve 3 messages: the three results; their call (message n−3) lies before the cut.
    const conv = conversation([
      user('u0', chars(400)),
      assistant('a1', chars(400)),
      user('u2', 'read the three files'),
      calls('a3', [
        ['c1', 'read_file', { path: 'a' }],
        ['c2', 'read_file', { path: 'b' }],
        ['c3', 'read_file', { path: 'c' }],
      ]),
      result('t4', 'c1', 'read_file', 'A'),
      result('t5', 'c2', 'read_file', 'B'),
      result('t6', 'c3', 'read_file', 'C'),
    ])
    const fixed = harness(conv, { summarizer: okSummarizer() })
    const f = await run(summarizeStrategy, fixed, { maxTokens: 100, preserveRecentMessages: 3 })
    const insert = ofKind(f, 'insert')[0]
    expect(insert?.covers).toEqual(['gu0', 'ga1', 'gu2'])
    expect(insert?.fixed).toContain(
      'orphaned in the tail; the tail was extended to the whole group',
    )
    expect(fixed.view.isExcluded(3)).toBe(false)

    const faithful = harness(conv, { summarizer: okSummarizer() })
    const g = await run(summarizeStrategy, faithful, {
      maxTokens: 100,
      preserveRecentMessages: 3,
      faithful: true,
    })
    expect(g.decisions[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent', groupId: 'ga3' })
    expect(detailOf(g.decisions[0])).toContain('leave 3 message(s) of its results orphaned')
    expect(ofKind(g, 'insert')[0]?.covers).toEqual(['gu0', 'ga1', 'gu2'])
  })
})

describe('summarize — options', () => {
  it("defaults are falai's auto_compact and invalid options are rejected", () => {
    const p = summarizeStrategy.schema.parse({})
    expect(p).toMatchObject({
      compactionThreshold: 0.8,
      preserveRecentMessages: 4,
      prompt: FALAI_SUMMARY_PROMPT,
      summaryPrefix: '[Conversation Summary]\n',
      role: 'system',
      placement: 'first',
      maxSummaryInputTokens: null,
      maxOutputTokens: 1024,
      onFailure: 'truncate',
      faithful: false,
    })
    const s = summarizeStrategy.schema
    expect(() => s.parse({ compactionThreshold: 0.4 })).toThrow(
      'compactionThreshold must be between 0.5 and 0.95',
    )
    expect(() => s.parse({ preserveRecentMessages: 0 })).toThrow(
      'preserveRecentMessages must be >= 1',
    )
    expect(() => s.parse({ maxSummaryInputTokens: 0 })).toThrow('maxSummaryInputTokens must be > 0')
    expect(() => s.parse({ placement: 'last' })).toThrow()
  })
})
