import { describe, expect, it } from 'vitest'
import type { Conversation, Message } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import { estimateCounter } from '../tokens/index.ts'
import { prepare } from './prepared.ts'
import { DEFAULT_PROTECTIONS } from './protect.ts'
import { compact } from './run.ts'

/**
 * Issue 10 item 1: a run with more decisions than the engine's argument limit. `push(...d)` of
 * ~120k+ decisions threw `RangeError: Maximum call stack size exceeded` (in pipeline.ts the step
 * then "failed open" and nothing changed; in run.ts the whole run threw).
 */
describe('runs with more than 150k decisions', () => {
  it('a sliding window over 160,000 groups drops 159,999 of them without a stack overflow', async () => {
    const n = 160_000
    const messages: Message[] = Array.from({ length: n }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? 'assistant' : 'user',
      parts: [{ kind: 'text', text: `message ${i}` }],
    }))
    const conversation: Conversation = {
      meta: { format: 'openai-chat' },
      system: [],
      tools: [],
      markers: [],
      messages,
    }
    const result = await compact(
      prepare(conversation, estimateCounter),
      {
        window: { contextTokens: 1000, reservedOutput: 0, buffer: 0 },
        protections: DEFAULT_PROTECTIONS,
        fallback: { enabled: false, strict: false },
        pipeline: [{ strategy: 'sliding-window', enabled: true, params: { keepLastGroups: 1 } }],
      },
      { counter: estimateCounter, summarizer: createDigestSummarizer() },
      STRATEGY_REGISTRY,
    )
    expect(result.decisions.filter((d) => d.kind === 'failed_open')).toEqual([])
    expect(result.decisions.length).toBeGreaterThan(150_000)
    expect(result.changes).toBe(n - 1)
    expect(result.projection.messages.map((m) => m.id)).toEqual([`m${n - 1}`])
    expect(result.invariants.ok).toBe(true)
  })
})
