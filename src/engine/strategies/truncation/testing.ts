/**
 * Test support for the Anthropic and Agent Framework strategy tests: tiny conversation builders,
 * a context wired exactly as the pipeline wires one, and a projection of the working view (what
 * the model would receive) for idempotence checks. Pure; imported by `*.test.ts` files only.
 */
import { StrategyContext } from '../../compaction/context.ts'
import { prepare } from '../../compaction/prepared.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../../compaction/protect.ts'
import type { AnyStrategy } from '../../compaction/strategy.ts'
import type { ProtectionConfig } from '../../compaction/types.ts'
import { WorkingView } from '../../compaction/view.ts'
import type { Conversation, Message, Part, Role } from '../../model.ts'
import type { Framing } from '../../tokens/pricing.ts'
import type { TextCounter } from '../../tokens/types.ts'
import { pushAll } from '../../arrays.ts'

export const text = (t: string): Part => ({ kind: 'text', text: t })
export const reasoning = (t: string, extra: Partial<Part> = {}): Part =>
  ({ kind: 'reasoning', text: t, ...extra }) as Part
export const call = (
  callId: string | null,
  name = 'tool',
  args: unknown = { value: 'x' },
): Part => ({
  kind: 'tool_call',
  callId,
  name,
  argsRaw: JSON.stringify(args),
  args,
})
export const result = (callId: string | null, out = 'ok', name?: string): Part => ({
  kind: 'tool_result',
  callId,
  content: [{ kind: 'text', text: out }],
  isError: false,
  ...(name ? { name } : {}),
})

/** Builds messages with sequential ids (`m1`, `m2`, …) per builder. */
export function messages() {
  let seq = 0
  return (role: Role, parts: Part[] | string, extra: Partial<Message> = {}): Message => {
    seq++
    return {
      id: `m${seq}`,
      role,
      parts: typeof parts === 'string' ? [text(parts)] : parts,
      ...extra,
    }
  }
}

export function conv(
  msgs: Message[],
  options: { system?: string; tools?: { name: string; raw: string }[] } = {},
): Conversation {
  return {
    meta: { format: 'openai-chat' },
    system: options.system ? [{ kind: 'text', text: options.system }] : [],
    tools: options.tools ?? [],
    messages: msgs,
    markers: [],
  }
}

/** One token per whitespace-separated word: makes expected numbers easy to read. */
export const wordCounter: TextCounter = {
  id: 'estimate',
  exact: false,
  count: (t: string) => t.split(/\s+/).filter((w) => w.length > 0).length,
}

/** No framing overhead: a message costs exactly its parts. */
export const NO_FRAMING: Framing = { perMessage: 0, perToolCall: 0, perConversation: 0 }

export interface Setup {
  readonly counter?: TextCounter
  readonly framing?: Framing
  readonly protections?: Partial<ProtectionConfig>
  readonly contextTokens?: number
  readonly reservedOutput?: number
  /** Replay: only messages before this index are visible. */
  readonly limit?: number
}

export function context(conversation: Conversation, id: string, setup: Setup = {}) {
  const prepared = prepare(conversation, setup.counter ?? wordCounter, {
    framing: setup.framing ?? NO_FRAMING,
  })
  const view = new WorkingView(prepared, setup.limit)
  const protections = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...setup.protections })
  const contextTokens = setup.contextTokens ?? 200_000
  const reservedOutput = setup.reservedOutput ?? 0
  const window = {
    contextTokens,
    reservedOutput,
    buffer: 0,
    usable: contextTokens - reservedOutput,
  }
  return new StrategyContext(view, protections, id, 0, window, undefined)
}

/** Run one strategy with schema-parsed params on a fresh context. */
export async function runStrategy(
  strategy: AnyStrategy,
  conversation: Conversation,
  params: Record<string, unknown>,
  setup: Setup = {},
): Promise<StrategyContext> {
  const ctx = context(conversation, strategy.id, setup)
  await strategy.run(ctx, strategy.schema.parse(params))
  return ctx
}

export interface Step {
  readonly strategy: AnyStrategy
  readonly params: Record<string, unknown>
  /** Gate like a pipeline `tokens` trigger: run only when the context is over this. */
  readonly over?: number
}

/**
 * Run steps in order over one working view, each with its own context (step index), gated like
 * pipeline token triggers. Returns every step's context (decisions per step).
 */
export async function runSteps(
  conversation: Conversation,
  steps: readonly Step[],
  setup: Setup = {},
): Promise<StrategyContext[]> {
  const first = context(conversation, steps[0]?.strategy.id ?? 'none', setup)
  const out: StrategyContext[] = []
  for (const [i, step] of steps.entries()) {
    const ctx =
      i === 0
        ? first
        : new StrategyContext(
            first.view,
            first.protections,
            step.strategy.id,
            i,
            first.window,
            undefined,
          )
    if (step.over !== undefined && ctx.totalTokens() <= step.over) continue
    await step.strategy.run(ctx, step.strategy.schema.parse(step.params))
    out.push(ctx)
  }
  return out
}

/**
 * What the model would receive: included messages with their current parts, inserted summaries
 * placed next to their anchor group, in conversation order (summaries become real messages with
 * `summaryOf`, so they form `summary` groups when the projection is grouped again).
 */
export function project(ctx: StrategyContext): Conversation {
  const view = ctx.view
  const { conversation, grouping } = view.prepared
  const before = new Map<number, Message[]>()
  const after = new Map<number, Message[]>()
  for (const s of view.summaries()) {
    const map = s.position === 'before' ? before : after
    map.set(s.anchor, [...(map.get(s.anchor) ?? []), s.message])
  }
  const out: Message[] = []
  const placed = new Set<number>()
  const lastOf = new Map<number, number>()
  for (const g of grouping.groups) {
    const visible = view.messagesOf(g.index)
    if (visible.length > 0) lastOf.set(g.index, visible[visible.length - 1] as number)
  }
  const system = grouping.groups[0]?.kind === 'system' && grouping.groups[0].messages.length === 0
  for (let m = 0; m < view.limit; m++) {
    const g = grouping.groupOfMessage[m] as number
    if (!placed.has(g)) {
      placed.add(g)
      pushAll(out, before.get(g) ?? [])
    }
    const msg = conversation.messages[m] as Message
    if (!view.isExcluded(g)) {
      const parts = view.currentParts(m)
      if (parts.length > 0) out.push({ ...msg, parts })
    }
    if (lastOf.get(g) === m) pushAll(out, after.get(g) ?? [])
  }
  return {
    ...conversation,
    system: system && view.isExcluded(0) ? [] : conversation.system,
    messages: out,
  }
}

/** Texts of the projection, one string per message (`role: text|[call name]|[result text]`). */
export function transcript(c: Conversation): string[] {
  return c.messages.map((m) => {
    const body = m.parts
      .map((p) => {
        switch (p.kind) {
          case 'text':
          case 'reasoning':
            return p.kind === 'reasoning' ? `(thinking: ${p.text})` : p.text
          case 'tool_call':
            return `[call ${p.name} ${p.argsRaw}]`
          case 'tool_result':
            return `[result ${p.content.map((c) => (c.kind === 'text' ? c.text : c.kind)).join('')}]`
          default:
            return `[${p.kind}]`
        }
      })
      .join(' ')
    return `${m.role}: ${body}`
  })
}
