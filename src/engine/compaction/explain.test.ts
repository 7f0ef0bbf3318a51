import { describe, expect, it } from 'vitest'
import { explainNoChange, type NoChangeInput } from './explain.ts'
import type { StepReport } from './pipeline.ts'
import type { Decision } from './types.ts'

const step = (status: StepReport['status'], why = 'any of: tokens > 100000 (tokens 65000)') => ({
  index: 0,
  strategy: 'supersede-stale-results',
  status,
  why,
  tokensBefore: 65_000,
  tokensAfter: 65_000,
  decisions: 0,
})
const base = {
  strategy: 'supersede-stale-results',
  step: 0,
  groupId: 'g1',
  tokensBefore: 10,
  tokensAfter: 10,
}
const skip = (reason: Decision['reason'], detail = ''): Decision => ({
  ...base,
  kind: 'skip',
  reason,
  sentence: detail,
})
const input = (over: Partial<NoChangeInput>): NoChangeInput => ({
  changes: 0,
  steps: [step('ran')],
  decisions: [],
  tokensBefore: 65_000,
  usable: 100_000,
  fallbackRan: false,
  ...over,
})

describe('explainNoChange', () => {
  it('says nothing when the run changed something', () => {
    expect(explainNoChange(input({ changes: 3 }))).toBeNull()
  })

  it('not triggered: at X % of the usable window, with the trigger', () => {
    expect(explainNoChange(input({ steps: [step('not_triggered')] }))).toBe(
      'Nothing changed: not triggered at 65 % of the usable window (65000 of 100000 tokens) — supersede-stale-results: any of: tokens > 100000 (tokens 65000).',
    )
  })

  it('every candidate protected: counts per protection', () => {
    const protectedBy = (protection: 'recent_turn' | 'pinned'): Decision => ({
      ...base,
      kind: 'protected',
      attempted: 'stub',
      protection,
      reason: 'protected',
      sentence: '',
    })
    const text = explainNoChange(
      input({
        decisions: [protectedBy('recent_turn'), protectedBy('recent_turn'), protectedBy('pinned')],
      }),
    )
    expect(text).toBe(
      'Nothing changed: every candidate is protected — protected (recent_turn) ×2, protected (pinned) ×1.',
    )
  })

  it('every candidate denied by policy: the top policy reasons with counts', () => {
    const denied = (cat: string) =>
      skip('denied_by_policy', `Kept \`bash\` output: category \`${cat}\` is denied, though …`)
    const text = explainNoChange(
      input({
        decisions: [
          denied('command_execution'),
          denied('command_execution'),
          denied('file_write'),
          denied('a'),
          denied('b'),
        ],
      }),
    )
    expect(text).toBe(
      'Nothing changed: every candidate is denied by policy — category `command_execution` is denied ×2, category `a` is denied ×1, category `b` is denied ×1 (+1 more).',
    )
  })

  it('mixed reasons: the top reason codes', () => {
    const text = explainNoChange(
      input({
        decisions: [
          skip('keep_recent'),
          skip('skipped_below_min_tokens'),
          skip('skipped_below_min_tokens'),
        ],
      }),
    )
    expect(text).toBe(
      'Nothing changed: every candidate was kept — skipped_below_min_tokens ×2, keep_recent ×1.',
    )
  })

  it('no step enabled, and a step that ran with no candidate', () => {
    expect(explainNoChange(input({ steps: [step('disabled')] }))).toContain(
      'no pipeline step is enabled',
    )
    expect(explainNoChange(input({}))).toContain('ran at 65 % of the usable window')
  })
})
