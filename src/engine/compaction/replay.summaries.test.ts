import { describe, expect, it } from 'vitest'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { assistant, calls, conversation, result, user } from '../strategies/summarize/testing.ts'
import type { Summarizer } from '../summarize/types.ts'
import { estimateCounter } from '../tokens/index.ts'
import { runPipeline } from './pipeline.ts'
import { prepare } from './prepared.ts'
import { project } from './project.ts'
import type { EngineConfig } from './types.ts'
import { WorkingView } from './view.ts'

/** Five user turns, each a tool call with a long result and an answer. */
function session() {
  return conversation(
    Array.from({ length: 5 }, (_, t) => [
      user(`u${t}`, `task ${t}`),
      calls(`a${t}`, [[`c${t}`, 'read_file', { path: `f${t}` }]]),
      result(`r${t}`, `c${t}`, 'read_file', `line ${t} `.repeat(200)),
      assistant(`d${t}`, `done ${t}`),
    ]).flat(),
    'You are an agent.',
  )
}

const config: EngineConfig = {
  window: { contextTokens: 10_000, reservedOutput: 0, buffer: 0 },
  protections: {
    system: true,
    recentTurns: 0,
    pinned: [],
    tools: [],
    pendingCalls: true,
    latestThinking: true,
  },
  pipeline: [
    {
      strategy: 'summarize',
      enabled: true,
      trigger: { mode: 'any', conditions: [{ kind: 'tokens', over: 600 }] },
      params: {
        compactionThreshold: null,
        preserveRecentMessages: 2,
        role: 'user',
        placement: 'first',
        summaryPrefix: 'Summary:\n\n',
        onFailure: 'fail_open',
      },
    },
  ],
  fallback: { enabled: false, strict: false },
}

describe('replay: a later summary absorbs the earlier one', () => {
  it('keeps one summary in the context, as every summarising system does', async () => {
    let n = 0
    const summarizer: Summarizer = {
      id: 'stub',
      label: 'stub',
      isLlm: true,
      summarize: async (request) => ({
        ok: true,
        text: `S${++n}${request.previousSummary ? ` after ${request.previousSummary}` : ''}`,
      }),
    }
    const prepared = prepare(session(), estimateCounter)
    const view = new WorkingView(prepared, 0)
    const summaries: string[][] = []
    for (let k = 1; k < prepared.conversation.messages.length; k++) {
      if (prepared.conversation.messages[k]?.role !== 'assistant') continue
      view.advanceTo(k)
      await runPipeline(view, config, { counter: estimateCounter, summarizer }, STRATEGY_REGISTRY)
      summaries.push(
        project(view)
          .messages.filter((m) => m.summaryOf)
          .map((m) => (m.parts[0]?.kind === 'text' ? m.parts[0].text : '')),
      )
    }
    expect(n).toBeGreaterThanOrEqual(2)
    // Never two summaries side by side; each new one carried the previous one forward.
    expect(summaries.every((s) => s.length <= 1)).toBe(true)
    expect(summaries.at(-1)?.[0]).toMatch(/^Summary:\n\nS\d+ after S\d+/)
    // The running total still equals the projection's tokens.
    const again = prepare(project(view), estimateCounter)
    expect(view.totalTokens).toBe(
      again.staticTokens + again.systemTokens + again.messageTokens.reduce((a, b) => a + b, 0),
    )
  })
})
