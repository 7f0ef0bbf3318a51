import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Conversation, Message, Part } from '../model.ts'
import { STRATEGY_REGISTRY } from '../strategies/index.ts'
import { createDigestSummarizer } from '../summarize/digest.ts'
import type { Summarizer } from '../summarize/types.ts'
import { estimateCounter } from '../tokens/index.ts'
import { DEFAULT_PROTECTIONS } from './protect.ts'
import { prepare } from './prepared.ts'
import { replay } from './replay.ts'
import { compact } from './run.ts'
import type { EngineConfig, StepConfig } from './types.ts'
import { writingSentences } from './sentence.ts'

/**
 * Property tests (issue 3): for generated conversations × generated configs, every invariant
 * holds (including idempotence: a second run on the projection changes nothing), runs are
 * deterministic, and replay never reports more context after compaction than before.
 */

const FILES = ['src/a.ts', 'src/b.ts', './src/a.ts', 'C:\\Repo\\x.py', 'docs/readme.md']
const TOOLS = ['Read', 'read_file', 'Grep', 'Bash', 'Edit', 'skill', 'list_dir']

const argsFor = (tool: string, file: string, range: number): unknown => {
  switch (tool) {
    case 'Grep':
      return { pattern: `p${range}`, path: 'src' }
    case 'Bash':
      return { command: range % 2 ? 'npm test' : 'git status' }
    case 'Edit':
      return { file_path: file, old_string: 'a', new_string: 'b' }
    default:
      return range % 3 === 0
        ? { file_path: file }
        : { file_path: file, offset: range * 10, limit: 50 }
  }
}

const words = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => `w${(i * 7 + seed) % 97}`).join(i0(seed))
const i0 = (seed: number) => (seed % 5 === 0 ? '\n' : ' ')

const callSpec = fc.record({
  tool: fc.constantFrom(...TOOLS),
  file: fc.constantFrom(...FILES),
  range: fc.nat({ max: 6 }),
  size: fc.nat({ max: 400 }),
  answered: fc.boolean(),
  error: fc.boolean(),
})

const turnSpec = fc.record({
  injected: fc.boolean(),
  prompt: fc.nat({ max: 40 }),
  steps: fc.array(
    fc.record({
      reasoning: fc.boolean(),
      calls: fc.array(callSpec, { minLength: 0, maxLength: 3 }),
      shuffle: fc.boolean(),
      text: fc.nat({ max: 60 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
})

type TurnSpec = typeof turnSpec extends fc.Arbitrary<infer T> ? T : never

export function buildConversation(turns: readonly TurnSpec[]): Conversation {
  const messages: Message[] = []
  let id = 0
  let call = 0
  const push = (role: Message['role'], parts: Part[], extra: Partial<Message> = {}) =>
    messages.push({ id: `m${id++}`, role, parts, ...extra })
  turns.forEach((turn, t) => {
    if (turn.injected)
      push('user', [{ kind: 'text', text: `<system-reminder>${t}</system-reminder>` }], {
        injected: true,
      })
    push('user', [{ kind: 'text', text: `request ${t}: ${words(turn.prompt, t)}` }])
    for (const step of turn.steps) {
      const parts: Part[] = []
      if (step.reasoning) parts.push({ kind: 'reasoning', text: `thinking ${words(10, t)}` })
      const results: Part[] = []
      for (const c of step.calls) {
        const callId = `c${call++}`
        const args = argsFor(c.tool, c.file, c.range)
        parts.push({ kind: 'tool_call', callId, name: c.tool, argsRaw: JSON.stringify(args), args })
        if (c.answered) {
          results.push({
            kind: 'tool_result',
            callId,
            content: [{ kind: 'text', text: `${c.tool} ${c.file}\n${words(c.size, c.range)}` }],
            isError: c.error,
          })
        }
      }
      if (step.calls.length === 0) parts.push({ kind: 'text', text: words(step.text + 1, t) })
      push('assistant', parts, { model: 'claude-sonnet-4-5' })
      const ordered = step.shuffle ? [...results].reverse() : results
      for (const r of ordered) push('tool', [r])
    }
  })
  return {
    // A model of no known provider: every part sent is counted (no reasoning rule). Under a rule
    // that drops earlier-turn thinking, a summary that absorbed such thinking can later cost more
    // than the thinking would have (measured, not a defect; see accounting.test.ts).
    meta: { format: 'openai-chat', model: 'test-model' },
    system: [{ kind: 'text', text: 'You are a coding agent.' }],
    tools: [{ name: 'Read', raw: '{"name":"Read"}' }],
    messages,
    markers: [],
  }
}

const fraction = (over: number): StepConfig['trigger'] => ({
  mode: 'any',
  conditions: [{ kind: 'window_fraction', over }],
})

/** Steps with valid parameters; windows are scaled to the conversation so strategies fire. */
const stepSpec = fc.oneof(
  fc.record({
    strategy: fc.constant('supersede-stale-results'),
    params: fc.record({
      minToolOutputTokens: fc.constantFrom(0, 20, 250),
      preserveLastN: fc.constantFrom(1, 2),
    }),
  }),
  fc.record({
    strategy: fc.constant('tool-payload-trim'),
    params: fc.record({
      inputTrimBytes: fc.constantFrom(10, 100),
      outputTrimBytes: fc.constantFrom(50, 100),
    }),
  }),
  fc.record({
    strategy: fc.constant('tool-result-budget'),
    params: fc.record({
      maxToolResultChars: fc.constantFrom(200, 1000),
      preserveRecentCount: fc.constantFrom(2, 4),
      compactionThreshold: fc.constantFrom(0.5, 0.8),
    }),
  }),
  fc.record({
    strategy: fc.constant('micro-compact'),
    params: fc.record({
      preserveRecentCount: fc.constantFrom(2, 4),
      compactionThreshold: fc.constant(0.5),
    }),
  }),
  fc.record({
    strategy: fc.constant('prune-tool-outputs'),
    params: fc.record({
      minimumTokens: fc.constantFrom(0, 200),
      protectTokens: fc.constantFrom(100, 1000),
      protectTurns: fc.constantFrom(0, 1, 2),
    }),
  }),
  fc.record({
    strategy: fc.constant('clear-tool-uses'),
    params: fc.record({
      triggerInputTokens: fc.constant(null),
      keep: fc.constantFrom(0, 1, 3),
      clearAtLeast: fc.constantFrom(0, 500),
    }),
  }),
  fc.record({
    strategy: fc.constant('clear-thinking'),
    params: fc.record({ keep: fc.constantFrom(0, 1, 2) }),
  }),
  fc.record({
    strategy: fc.constant('collapse-tool-results'),
    params: fc.record({ keepLastToolCallGroups: fc.constantFrom(0, 1, 4) }),
  }),
  fc.record({
    strategy: fc.constant('selective-tool-calls'),
    params: fc.record({ keepLastToolCallGroups: fc.constantFrom(0, 1, 3) }),
  }),
  fc.record({
    strategy: fc.constant('sliding-window'),
    params: fc.record({ keepLastGroups: fc.constantFrom(1, 3, 8) }),
  }),
  fc
    .record({
      strategy: fc.constant('truncation'),
      params: fc.record({
        metric: fc.constantFrom('messages', 'tokens'),
        maxN: fc.constantFrom(10, 2000),
        compactTo: fc.constantFrom(5, 1000),
      }),
    })
    .map((s) => ({
      ...s,
      params: { ...s.params, compactTo: Math.min(s.params.compactTo, s.params.maxN) },
    })),
  fc.record({
    strategy: fc.constant('summarize'),
    params: fc.record({
      compactionThreshold: fc.constant(null),
      preserveRecentGroups: fc.constantFrom(1, 3),
      onFailure: fc.constantFrom('truncate', 'fail_open'),
    }),
  }),
  fc.record({
    strategy: fc.constant('token-budget'),
    params: fc.record({ tokenBudget: fc.constantFrom(500, 3000) }),
  }),
)

const configSpec = fc.record({
  steps: fc.array(
    fc.record({
      step: stepSpec,
      trigger: fc.option(fc.constantFrom(0.3, 0.6, 0.9), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  windowScale: fc.constantFrom(0.3, 0.6, 1.2),
  fallback: fc.boolean(),
  recentTurns: fc.constantFrom(0, 1),
  protectSkill: fc.boolean(),
})

export function buildConfig(
  spec: typeof configSpec extends fc.Arbitrary<infer T> ? T : never,
  tokens: number,
): EngineConfig {
  return {
    window: {
      contextTokens: Math.max(200, Math.round(tokens * spec.windowScale)),
      reservedOutput: 50,
      buffer: 0,
    },
    protections: {
      ...DEFAULT_PROTECTIONS,
      recentTurns: spec.recentTurns,
      tools: spec.protectSkill ? ['skill'] : [],
    },
    pipeline: spec.steps.map((s) => ({
      strategy: s.step.strategy,
      enabled: true,
      params: s.step.params,
      ...(s.trigger !== undefined ? { trigger: fraction(s.trigger) } : {}),
    })),
    fallback: { enabled: spec.fallback, strict: false },
  }
}

const failing: Summarizer = {
  id: 'fail',
  label: 'fails',
  isLlm: true,
  summarize: async () => ({ ok: false, error: 'down' }),
}

describe('engine properties', () => {
  it('invariants hold, runs are deterministic and idempotent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnSpec, { minLength: 1, maxLength: 6 }),
        configSpec,
        fc.boolean(),
        async (turns, spec, summaryWorks) => {
          const conversation = buildConversation(turns)
          const prepared = prepare(conversation, estimateCounter)
          const total = prepared.messageTokens.reduce((a, b) => a + b, 0)
          const config = buildConfig(spec, total)
          const deps = {
            counter: estimateCounter,
            summarizer: summaryWorks ? createDigestSummarizer() : failing,
          }
          const first = await compact(prepared, config, deps, STRATEGY_REGISTRY)
          const broken = first.invariants.checks.filter((c) => !c.ok)
          expect(broken, JSON.stringify(broken.map((b) => [b.id, b.detail]))).toEqual([])
          const second = await compact(
            prepare(conversation, estimateCounter),
            config,
            deps,
            STRATEGY_REGISTRY,
          )
          expect(JSON.stringify(second.decisions, writingSentences)).toBe(
            JSON.stringify(first.decisions, writingSentences),
          )
          expect(second.projection.messages.map((m) => m.id)).toEqual(
            first.projection.messages.map((m) => m.id),
          )
        },
      ),
      { numRuns: 250 },
    )
  }, 120_000)

  it('replay: compaction never adds context, and decisions persist between calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnSpec, { minLength: 2, maxLength: 6 }),
        configSpec,
        async (turns, spec) => {
          const conversation = buildConversation(turns)
          const prepared = prepare(conversation, estimateCounter)
          const total = prepared.messageTokens.reduce((a, b) => a + b, 0)
          const points = await replay(
            prepared,
            buildConfig(spec, total),
            { counter: estimateCounter, summarizer: createDigestSummarizer() },
            STRATEGY_REGISTRY,
          )
          const assistants = conversation.messages.filter(
            (m, i) => m.role === 'assistant' && i > 0,
          ).length
          expect(points).toHaveLength(assistants)
          for (const p of points) expect(p.after, JSON.stringify(p)).toBeLessThanOrEqual(p.before)
        },
      ),
      { numRuns: Number(process.env.PROP_RUNS ?? 120) },
    )
  }, 120_000)
})
