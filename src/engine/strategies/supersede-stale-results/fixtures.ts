/**
 * Test builders for the supersede-stale-results tests: OpenAI-chat-shaped conversations (an
 * assistant message per call, a tool message per result) and a runner through the real
 * pipeline pieces (prepare → WorkingView → protections → StrategyContext).
 */
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import type { Decision, ProtectionConfig } from '../../compaction/types.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Conversation, Message, Part, ToolResultPart } from '../../model.ts'
import { estimateCounter } from '../../tokens/index.ts'
import { supersedeStaleResultsStrategy as strategy } from '../supersede-stale-results.ts'

let seq = 0
const nextId = () => `m${++seq}`

export const user = (text: string): Message => ({
  id: nextId(),
  role: 'user',
  parts: [{ kind: 'text', text }],
})

/** One call and its result: `[assistant(call), tool(result)]`. */
export function exchange(
  name: string,
  args: Readonly<Record<string, unknown>> | string,
  output: string,
  opts: { say?: string; isError?: boolean } = {},
): Message[] {
  const callId = `call_${++seq}`
  const argsRaw = typeof args === 'string' ? args : JSON.stringify(args)
  const parts: Part[] = [
    ...(opts.say ? [{ kind: 'text' as const, text: opts.say }] : []),
    { kind: 'tool_call', callId, name, argsRaw, ...(typeof args === 'string' ? {} : { args }) },
  ]
  return [
    { id: nextId(), role: 'assistant', parts },
    {
      id: nextId(),
      role: 'tool',
      parts: [
        {
          kind: 'tool_result',
          callId,
          name,
          content: [{ kind: 'text', text: output }],
          isError: opts.isError ?? false,
        },
      ],
    },
  ]
}

export function conversation(
  messages: readonly (Message | Message[])[],
  cwd?: string,
): Conversation {
  return {
    meta: { format: 'openai-chat', ...(cwd ? { cwd } : {}) },
    system: [{ kind: 'text', text: 'You are a coding agent.' }],
    tools: [],
    messages: messages.flat(),
    markers: [],
  }
}

export interface Run {
  readonly ctx: StrategyContext
  readonly view: WorkingView
  readonly decisions: readonly Decision[]
  /** Text of the (current) result in message `id`. */
  resultText(id: string): string
  resultPart(id: string): ToolResultPart
}

export async function runOn(
  view: WorkingView,
  params: Record<string, unknown> = {},
  protections: Partial<ProtectionConfig> = {},
): Promise<Run> {
  const ctx = new StrategyContext(
    view,
    computeProtections(view, { ...DEFAULT_PROTECTIONS, ...protections }),
    strategy.id,
    0,
    { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 },
    undefined,
  )
  await strategy.run(ctx, strategy.schema.parse(params))
  const messages = view.prepared.conversation.messages
  const resultPart = (id: string): ToolResultPart => {
    const m = messages.findIndex((x) => x.id === id)
    const part = view.part({ message: m, part: 0 })
    if (part?.kind !== 'tool_result') throw new Error(`no tool result in ${id}`)
    return part
  }
  return {
    ctx,
    view,
    decisions: ctx.decisions,
    resultPart,
    resultText: (id) =>
      resultPart(id)
        .content.map((c) => (c.kind === 'text' ? c.text : `[${c.kind}]`))
        .join('\n'),
  }
}

export function run(
  conv: Conversation,
  params: Record<string, unknown> = {},
  protections: Partial<ProtectionConfig> = {},
): Promise<Run> {
  return runOn(new WorkingView(prepare(conv, estimateCounter)), params, protections)
}

/** Result message id of an exchange. */
export const rid = (ex: readonly Message[]): string => (ex[1] as Message).id

/** `[reason, messageId-or-group]` pairs, compact for assertions. */
export const summary = (r: Run): string[] =>
  r.decisions.map((d) => {
    const target =
      'target' in d && d.target
        ? r.view.prepared.conversation.messages[d.target.message]?.id
        : d.groupId
    return `${d.kind}:${d.reason}:${target}`
  })

export const lipStub = (resource: string, bytes: number): string =>
  `[COMPACTED] Previous output for ${resource} (${bytes} bytes) was removed because a newer result for this resource exists later in the conversation.`
