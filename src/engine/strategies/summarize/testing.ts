/**
 * Small builders shared by the tests of tool-result-budget, micro-compact, summarize and
 * prune-tool-outputs (not used by the engine itself). They run a strategy through the real
 * pipeline pieces: prepare → WorkingView → computeProtections → StrategyContext.
 */
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import {
  computeProtections,
  DEFAULT_PROTECTIONS,
  type Protections,
} from '../../compaction/protect.ts'
import type { AnyStrategy } from '../../compaction/strategy.ts'
import type { Decision, ProtectionConfig } from '../../compaction/types.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Conversation, Message, Part, Role, ToolResultPart } from '../../model.ts'
import type { Summarizer, SummaryRequest } from '../../summarize/types.ts'
import { estimateCounter } from '../../tokens/index.ts'
import type { TextCounter } from '../../tokens/types.ts'

export function conversation(messages: Message[], system?: string): Conversation {
  return {
    meta: { format: 'openai-chat' },
    system: system === undefined ? [] : [{ kind: 'text', text: system }],
    tools: [],
    messages,
    markers: [],
  }
}

export const text = (
  role: Role,
  id: string,
  body: string,
  extra: Partial<Message> = {},
): Message => ({
  id,
  role,
  parts: [{ kind: 'text', text: body }],
  ...extra,
})
export const user = (id: string, body: string): Message => text('user', id, body)
export const assistant = (id: string, body: string): Message => text('assistant', id, body)

/** An assistant message calling tools: `[callId, name, args?]`. */
export function calls(id: string, list: [string, string, unknown?][], body?: string): Message {
  const parts: Part[] = body ? [{ kind: 'text', text: body }] : []
  for (const [callId, name, args] of list) {
    const a = args ?? {}
    parts.push({ kind: 'tool_call', callId, name, argsRaw: JSON.stringify(a), args: a })
  }
  return { id, role: 'assistant', parts }
}

/** A `tool` message with one result. */
export function result(
  id: string,
  callId: string,
  name: string,
  output: string,
  extra: Partial<ToolResultPart> = {},
): Message {
  return {
    id,
    role: 'tool',
    parts: [
      {
        kind: 'tool_result',
        callId,
        name,
        content: [{ kind: 'text', text: output }],
        isError: false,
        ...extra,
      },
    ],
  }
}

export interface Harness {
  readonly view: WorkingView
  readonly protections: Protections
  readonly usable: number
  readonly summarizer: Summarizer | undefined
}

export function harness(
  conv: Conversation,
  opts: {
    usable?: number
    protections?: Partial<ProtectionConfig>
    summarizer?: Summarizer
    counter?: TextCounter
  } = {},
): Harness {
  const prepared = prepare(conv, opts.counter ?? estimateCounter)
  const view = new WorkingView(prepared)
  const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...opts.protections })
  return { view, protections, usable: opts.usable ?? 100_000, summarizer: opts.summarizer }
}

/** Run one strategy as pipeline step `step` over the harness's view; returns its context. */
export async function run(
  strategy: AnyStrategy,
  h: Harness,
  params: Record<string, unknown> = {},
  step = 0,
): Promise<StrategyContext> {
  const window = { contextTokens: h.usable, reservedOutput: 0, buffer: 0, usable: h.usable }
  const ctx = new StrategyContext(h.view, h.protections, strategy.id, step, window, h.summarizer)
  await strategy.run(ctx, strategy.schema.parse(params))
  return ctx
}

/** Current text of a message's part (tool result content or text), for assertions. */
export function partText(view: WorkingView, message: number, part = 0): string | null {
  const p = view.part({ message, part })
  if (!p) return null
  if (p.kind === 'text') return p.text
  if (p.kind === 'tool_result') {
    return p.content.map((c) => (c.kind === 'text' ? c.text : `[${c.kind}]`)).join('')
  }
  return null
}

// ---- fake summarisers for tests (the real digest / HTTP ones are another module's business) ----

export function okSummarizer(answer = 'The user asked for a fix; the build log was read.') {
  const requests: SummaryRequest[] = []
  const s: Summarizer & { requests: SummaryRequest[] } = {
    id: 'fake-ok',
    label: 'Fake summariser',
    isLlm: true,
    requests,
    summarize(request) {
      requests.push(request)
      return Promise.resolve({ ok: true, text: answer })
    },
  }
  return s
}

export function failingSummarizer(how: 'throw' | 'error' | 'empty') {
  const s: Summarizer & { calls: number } = {
    id: 'fake-failing',
    label: 'Failing summariser',
    isLlm: true,
    calls: 0,
    summarize() {
      s.calls++
      if (how === 'throw') return Promise.reject(new Error('provider unavailable (HTTP 503)'))
      if (how === 'empty') return Promise.resolve({ ok: true, text: '  ' })
      return Promise.resolve({ ok: false, error: 'rate limited' })
    },
  }
  return s
}

/** `kind:reason:groupId` of every decision, for compact assertions. */
export const reasons = (ctx: StrategyContext): string[] =>
  ctx.decisions.map((d) => `${d.kind}:${d.reason}:${d.groupId}`)

/** Decisions of one kind, typed. */
export const ofKind = <K extends Decision['kind']>(ctx: StrategyContext, kind: K) =>
  ctx.decisions.filter((d): d is Extract<Decision, { kind: K }> => d.kind === kind)
