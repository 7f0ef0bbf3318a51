import { describe, expect, it } from 'vitest'
import { inspectConversation } from '../inspect.ts'
import type { Conversation, Message, Part } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import type { Summarizer } from '../summarize/types.ts'
import { estimateCounter, loadCounter } from '../tokens/index.ts'
import { DEFAULT_PROTECTIONS } from './protect.ts'
import { prepare } from './prepared.ts'
import { replay } from './replay.ts'
import { compact } from './run.ts'
import type { EngineConfig } from './types.ts'

/**
 * engines.md §9 hard cases that concern the engine as a whole rather than one strategy (the
 * strategy-specific ones are named tests beside each strategy). Case 9 (tool approval request and
 * response as separate messages) does not apply: the canonical model has no approval parts — an
 * approval is imported as ordinary text, which never splits a call from its result.
 */
const text = (t: string): Part => ({ kind: 'text', text: t })
const call = (id: string, name = 'Read'): Part => ({
  kind: 'tool_call',
  callId: id,
  name,
  argsRaw: '{"file_path":"a.ts"}',
  args: { file_path: 'a.ts' },
})
const result = (id: string, out: string): Part => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text: out }],
  isError: false,
})
const conv = (messages: Message[], extra: Partial<Conversation> = {}): Conversation => ({
  meta: { format: 'openai-chat' },
  system: [],
  tools: [],
  messages,
  markers: [],
  ...extra,
})
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
const config = (pipeline: EngineConfig['pipeline'], window = 100_000): EngineConfig => ({
  window: { contextTokens: window, reservedOutput: 0, buffer: 0 },
  protections: DEFAULT_PROTECTIONS,
  pipeline,
  fallback: { enabled: false, strict: false },
})

describe('engine hard cases (engines.md §9)', () => {
  it('hard case 26: reported usage is the latest prompt size, never a sum of snapshots', () => {
    const c = conv([
      { id: 'u', role: 'user', parts: [text('hi')] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [text('one')],
        usage: { contextTokens: 1000, source: 'test' },
      },
      { id: 'u2', role: 'user', parts: [text('again')] },
      {
        id: 'a2',
        role: 'assistant',
        parts: [text('two')],
        usage: { contextTokens: 1200, source: 'test' },
      },
    ])
    const report = inspectConversation(c, estimateCounter)
    expect(report.reported).toMatchObject({ contextTokens: 1200, messageId: 'a2', points: 2 })
  })

  it('hard case 26: replay reports each call’s own prompt size beside our estimate', async () => {
    const c = conv([
      { id: 'u', role: 'user', parts: [text('hi')] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [text('one')],
        usage: { contextTokens: 1000, source: 'test' },
      },
      {
        id: 'a2',
        role: 'assistant',
        parts: [text('two')],
        usage: { contextTokens: 1200, source: 'test' },
      },
    ])
    const points = await replay(
      prepare(c, estimateCounter),
      config([]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    expect(points.map((p) => p.reported)).toEqual([1000, 1200])
  })

  it('hard case 27: tool schemas and the system prompt count against the budget', async () => {
    const schema = JSON.stringify({
      name: 'Read',
      description: words(400),
      input_schema: { type: 'object' },
    })
    const c = conv([{ id: 'u', role: 'user', parts: [text('hi')] }], {
      system: [{ kind: 'text', text: words(200) }],
      tools: [{ name: 'Read', raw: schema }],
    })
    const r = await compact(c, config([], 500), { counter: estimateCounter }, STRATEGY_REGISTRY)
    const p = prepare(c, estimateCounter)
    expect(p.systemTokens).toBeGreaterThan(0)
    expect(p.staticTokens).toBeGreaterThanOrEqual(Math.ceil(schema.length / 4))
    expect(r.tokensBefore).toBe(p.staticTokens + p.systemTokens + (p.messageTokens[0] ?? 0))
  })

  it('hard case 29: CJK text is counted by the tokenizer, not by chars/4', async () => {
    const counter = await loadCounter('o200k_base')
    const cjk = '日本語のテキストです。'.repeat(20)
    const c = conv([{ id: 'u', role: 'user', parts: [text(cjk)] }])
    const exact = inspectConversation(c, counter).tokens.byCategory.user
    expect(exact).toBe(counter.count(cjk))
    expect(exact).not.toBe(Math.ceil(cjk.length / 4))
  })

  it('hard case 30: an upstream compaction stays visible as a marker in the projection and the replay', async () => {
    const c = conv(
      [
        { id: 'u', role: 'user', parts: [text('hi')] },
        { id: 'a1', role: 'assistant', parts: [text('one')] },
        {
          id: 's',
          role: 'user',
          parts: [text('This session is being continued…')],
          injected: true,
        },
        { id: 'a2', role: 'assistant', parts: [text('two')] },
      ],
      {
        markers: [
          {
            kind: 'upstream_compaction',
            beforeIndex: 2,
            origin: 'claude-code-summary',
            summary: 'continued',
          },
        ],
      },
    )
    const r = await compact(c, config([]), { counter: estimateCounter }, STRATEGY_REGISTRY)
    expect(r.projection.markers).toEqual(c.markers)
    const points = await replay(
      prepare(c, estimateCounter),
      config([]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    expect(points.map((p) => p.upstreamCompaction ?? false)).toEqual([false, true])
  })

  it('hard case 31: generated summary ids never collide with ids already in the conversation', async () => {
    const messages: Message[] = [
      {
        id: 'summary-0-gm1',
        role: 'user',
        parts: [text('a message that happens to use our id scheme')],
      },
    ]
    for (let i = 1; i <= 6; i++) {
      messages.push({ id: `m${i}`, role: 'assistant', parts: [call(`c${i}`)] })
      messages.push({ id: `t${i}`, role: 'tool', parts: [result(`c${i}`, words(200))] })
    }
    const r = await compact(
      conv(messages),
      config([
        { strategy: 'collapse-tool-results', enabled: true, params: { keepLastToolCallGroups: 1 } },
      ]),
      { counter: estimateCounter },
      STRATEGY_REGISTRY,
    )
    const ids = r.projection.messages.map((m) => m.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(r.decisions.some((d) => d.kind === 'insert')).toBe(true)
  })

  it('hard case 32: the input is never mutated, even while an async summariser is in flight', async () => {
    const messages: Message[] = [{ id: 'u', role: 'user', parts: [text(words(50))] }]
    for (let i = 0; i < 8; i++) {
      messages.push({ id: `a${i}`, role: 'assistant', parts: [text(words(300))] })
      messages.push({ id: `u${i}`, role: 'user', parts: [text(words(300))] })
    }
    const c = conv(messages)
    const snapshot = JSON.stringify(c)
    let calls = 0
    const slow: Summarizer = {
      id: 'slow',
      label: 'slow',
      isLlm: true,
      summarize: () => {
        calls++
        return new Promise((resolve) =>
          setTimeout(() => resolve({ ok: true, text: 'short summary' }), 5),
        )
      },
    }
    const pending = compact(
      c,
      config(
        [
          {
            strategy: 'summarize',
            enabled: true,
            params: { compactionThreshold: null, preserveRecentGroups: 2, onFailure: 'fail_open' },
          },
        ],
        2000,
      ),
      { counter: estimateCounter, summarizer: slow },
      STRATEGY_REGISTRY,
    )
    // "Append" to the transcript while the summary is pending: a new conversation object, as the
    // app builds one; the running compaction keeps working on the one it was given.
    const appended = conv([
      ...c.messages,
      { id: 'late', role: 'user', parts: [text('late message')] },
    ])
    const r = await pending
    expect(calls).toBeGreaterThan(0)
    expect(JSON.stringify(c)).toBe(snapshot)
    expect(r.projection.messages.some((m) => m.id === 'late')).toBe(false)
    expect(appended.messages).toHaveLength(c.messages.length + 1)
    expect(r.invariants.ok).toBe(true)
  })
})
