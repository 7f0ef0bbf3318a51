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

  it('one run with more than 200,000 decisions (tool payloads trimmed, then a sliding window) completes', async () => {
    // 70,000 tool round trips: tool-payload-trim decides on every call and every result (140k),
    // then the sliding window drops every group but the last (70k): 210k decisions in one round.
    const pairs = 70_000
    const messages: Message[] = [{ id: 'u0', role: 'user', parts: [{ kind: 'text', text: 'go' }] }]
    for (let i = 0; i < pairs; i++) {
      messages.push({
        id: `a${i}`,
        role: 'assistant',
        parts: [
          {
            kind: 'tool_call',
            callId: `c${i}`,
            name: 'read_file',
            argsRaw: JSON.stringify({ path: `src/f${i % 97}.ts`, note: 'x'.repeat(120) }),
          },
        ],
      })
      messages.push({
        id: `t${i}`,
        role: 'tool',
        parts: [
          {
            kind: 'tool_result',
            callId: `c${i}`,
            isError: false,
            content: [{ kind: 'text', text: `line ${i}` }],
          },
        ],
      })
    }
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
        pipeline: [
          { strategy: 'tool-payload-trim', enabled: true, params: {} },
          { strategy: 'sliding-window', enabled: true, params: { keepLastGroups: 1 } },
        ],
      },
      { counter: estimateCounter, summarizer: createDigestSummarizer() },
      STRATEGY_REGISTRY,
      { checkIdempotence: false },
    )
    expect(result.decisions.filter((d) => d.kind === 'failed_open')).toEqual([])
    expect(result.decisions.length).toBeGreaterThanOrEqual(200_000)
    expect(result.decisions.filter((d) => d.strategy === 'tool-payload-trim').length).toBe(
      2 * pairs,
    )
    expect(result.invariants.ok).toBe(true)
  })
})
