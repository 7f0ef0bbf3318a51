// Node-only test helper: `.mts` keeps it out of tsconfig.engine.json (no Node types there); it is
// type-checked through the tests that import it (tsconfig.node.json).
/**
 * The LangChain differential check (issue 11): the exported middleware, built by the real
 * `langchain` package, runs inside a real `createAgent` loop that replays a transcript — a stub
 * model answers each model call with the transcript's next assistant message and records the
 * messages it was sent, stub tools return the transcript's results — and the lab replays the
 * same transcript under the same config. Call by call, what the model was sent must be what the
 * lab's projection holds.
 *
 * Both sides count tokens with the same counter (the lab's own, handed to the middleware as its
 * `tokenCounter` and as the model's `getNumTokensFromMessages`), so a difference is about what is
 * done, never about when a threshold is crossed; the exported snippet is otherwise run as written
 * (only its `summaryModel` is swapped for a stub that answers "SUMMARY n", as the lab's summariser
 * does).
 */
import { createRequire } from 'node:module'
import { BaseChatModel } from '@langchain/core/language_models/chat_models'
import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages'
import type { ChatResult } from '@langchain/core/outputs'
import { tool } from '@langchain/core/tools'
import ts from 'typescript'
import { z } from 'zod'
import type { CompactionConfig } from '../../config/schema.ts'
import { prepare } from '../../engine/compaction/prepared.ts'
import { runPipeline } from '../../engine/compaction/pipeline.ts'
import { project } from '../../engine/compaction/project.ts'
import { WorkingView } from '../../engine/compaction/view.ts'
import type { Conversation, Message, Part } from '../../engine/model.ts'
import { STRATEGY_REGISTRY } from '../../engine/strategies/index.ts'
import type { Summarizer } from '../../engine/summarize/types.ts'
import { priceMessage } from '../../engine/tokens/pricing.ts'
import type { TextCounter } from '../../engine/tokens/types.ts'
import { exportTarget } from '../targets/index.ts'

/** One message as both sides can hold it: LangChain's four message classes, text only. */
export type IrMessage =
  | { readonly kind: 'human'; readonly text: string }
  | {
      readonly kind: 'ai'
      readonly text: string
      readonly calls: readonly {
        readonly id: string
        readonly name: string
        readonly args: object
      }[]
    }
  | { readonly kind: 'tool'; readonly callId: string; readonly name: string; readonly text: string }

export interface Replayable {
  readonly system: string
  readonly messages: readonly IrMessage[]
  /** Why the transcript was cut short, when it was (the rest is not a plain agent loop). */
  readonly cut?: string
}

const textOf = (parts: readonly { kind: string; text?: string }[]) =>
  parts
    .filter((p) => p.kind === 'text')
    .map((p) => p.text ?? '')
    .join('\n')

function argsOf(raw: string, parsed: unknown): object {
  const value = parsed ?? safeJson(raw)
  return value && typeof value === 'object' && !Array.isArray(value) ? value : { value: raw }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return undefined
  }
}

/**
 * A transcript as an agent loop LangChain can replay: text, tool calls and their results (images,
 * reasoning and opaque blocks have no place in it), consecutive user messages merged, results in
 * the order of their calls, a closing answer after a turn that ends on tool results, and cut
 * where the loop's shape ends (a call without its result, a result without its call).
 */
export function replayable(conversation: Conversation): Replayable {
  const system = conversation.system.map((b) => b.text).join('\n\n')
  const out: IrMessage[] = []
  const results = new Map<string, { name: string; text: string }>()
  for (const m of conversation.messages)
    for (const p of m.parts)
      if (p.kind === 'tool_result' && p.callId)
        results.set(p.callId, { name: p.name ?? '', text: textOf(p.content) })
  const cut = (why: string): Replayable => ({ system, messages: trimEnd(out), cut: why })
  const seenCalls = new Set<string>()
  for (const m of conversation.messages) {
    if (m.sidechain) continue
    if (m.role === 'user' || m.role === 'system') {
      const text = textOf(m.parts)
      if (m.parts.some((p) => p.kind === 'tool_result' && !seenCalls.has(p.callId ?? '')))
        return cut(`a tool result in message ${m.id} answers no earlier call`)
      if (text.trim() === '') continue
      const last = out.at(-1)
      if (last?.kind === 'human')
        out[out.length - 1] = { kind: 'human', text: `${last.text}\n${text}` }
      else {
        // The agent loop calls the model again after tool results: a turn the transcript ends on
        // its tool results gets a closing answer (the same on both sides).
        if (last?.kind === 'tool') out.push({ kind: 'ai', text: CLOSING, calls: [] })
        out.push({ kind: 'human', text })
      }
    } else if (m.role === 'assistant') {
      if (!out.some((x) => x.kind === 'human')) continue
      const calls = m.parts.flatMap((p) =>
        p.kind === 'tool_call' && p.callId
          ? [{ id: p.callId, name: p.name, args: argsOf(p.argsRaw, p.args) }]
          : [],
      )
      const text = textOf(m.parts)
      const last = out.at(-1)
      if (last?.kind === 'ai' && last.calls.length === 0) {
        // Two assistant messages in a row: one model answer in an agent loop.
        out[out.length - 1] = {
          kind: 'ai',
          text: [last.text, text].filter(Boolean).join('\n'),
          calls,
        }
      } else out.push({ kind: 'ai', text, calls })
      for (const c of calls) {
        const r = results.get(c.id)
        if (!r) return cut(`call ${c.id} of message ${m.id} has no result`)
        seenCalls.add(c.id)
        out.push({ kind: 'tool', callId: c.id, name: c.name, text: r.text })
      }
    }
  }
  return { system, messages: trimEnd(out) }
}

/** The answer that closes a turn the transcript ended on tool results. */
const CLOSING = '(turn ends)'

/** A replay ends on an assistant answer without calls (the agent loop's end of a turn). */
function trimEnd(messages: IrMessage[]): IrMessage[] {
  const out = [...messages]
  while (out.length > 0) {
    const last = out.at(-1) as IrMessage
    if (last.kind === 'ai' && last.calls.length === 0) break
    out.pop()
  }
  return out
}

/** The canonical message of an IR message: what the lab holds and prices. */
function canonical(ir: IrMessage, id: string): Message {
  switch (ir.kind) {
    case 'human':
      return { id, role: 'user', parts: [{ kind: 'text', text: ir.text }] }
    case 'ai': {
      const parts: Part[] = ir.text ? [{ kind: 'text', text: ir.text }] : []
      for (const c of ir.calls)
        parts.push({
          kind: 'tool_call',
          callId: c.id,
          name: c.name,
          argsRaw: JSON.stringify(c.args),
          args: c.args,
        })
      return { id, role: 'assistant', parts }
    }
    case 'tool':
      return {
        id,
        role: 'tool',
        parts: [
          {
            kind: 'tool_result',
            callId: ir.callId,
            name: ir.name,
            content: [{ kind: 'text', text: ir.text }],
            isError: false,
          },
        ],
      }
  }
}

/** The replayable transcript as a conversation the lab runs on. */
export function labConversation(r: Replayable): Conversation {
  return {
    meta: { format: 'langchain' },
    system: r.system ? [{ kind: 'text', text: r.system }] : [],
    tools: [],
    messages: r.messages.map((m, i) => canonical(m, `m${i}`)),
    markers: [],
  }
}

/** What a model call was sent, in one comparable shape. */
export interface SentMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly text: string
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: unknown }[]
  readonly callId?: string
}

function lcText(m: BaseMessage): string {
  const c = m.content
  if (typeof c === 'string') return c
  return c.map((b) => (typeof b === 'string' ? b : 'text' in b ? String(b.text) : '')).join('')
}

function fromLangChain(m: BaseMessage): SentMessage {
  if (SystemMessage.isInstance(m)) return { role: 'system', text: lcText(m) }
  if (ToolMessage.isInstance(m)) return { role: 'tool', text: lcText(m), callId: m.tool_call_id }
  if (AIMessage.isInstance(m)) {
    const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id ?? '', name: c.name, args: c.args }))
    return { role: 'assistant', text: lcText(m), ...(calls.length > 0 ? { calls } : {}) }
  }
  return { role: 'user', text: lcText(m) }
}

function fromLab(m: Message): SentMessage {
  const text = m.parts
    .filter((p) => p.kind === 'text')
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('')
  if (m.role === 'tool' || m.parts.some((p) => p.kind === 'tool_result')) {
    const r = m.parts.find((p) => p.kind === 'tool_result')
    return {
      role: 'tool',
      text: r?.kind === 'tool_result' ? textOf(r.content) : text,
      callId: r?.kind === 'tool_result' ? (r.callId ?? '') : '',
    }
  }
  if (m.role === 'assistant') {
    const calls = m.parts.flatMap((p) =>
      p.kind === 'tool_call'
        ? [{ id: p.callId ?? '', name: p.name, args: p.args ?? safeJson(p.argsRaw) }]
        : [],
    )
    return { role: 'assistant', text, ...(calls.length > 0 ? { calls } : {}) }
  }
  return { role: m.role === 'system' ? 'system' : 'user', text }
}

function labSent(conversation: Conversation): SentMessage[] {
  const system = conversation.system.map((b) => b.text).join('\n\n')
  return [
    ...(system ? [{ role: 'system' as const, text: system }] : []),
    ...conversation.messages.map(fromLab),
  ]
}

/** IR of a LangChain message, to price it as the lab prices the same message. */
function irOfLangChain(m: BaseMessage): IrMessage | null {
  const sent = fromLangChain(m)
  switch (sent.role) {
    case 'system':
      return null
    case 'user':
      return { kind: 'human', text: sent.text }
    case 'assistant':
      return {
        kind: 'ai',
        text: sent.text,
        calls: (sent.calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args as object })),
      }
    case 'tool':
      return {
        kind: 'tool',
        callId: sent.callId ?? '',
        name: (m as ToolMessage).name ?? '',
        text: sent.text,
      }
  }
}

/** Stub chat model: answers with the next scripted message and records what it was sent. */
class ScriptedModel extends BaseChatModel {
  readonly sent: SentMessage[][] = []
  private readonly answers: readonly BaseMessage[]
  private readonly counter: (messages: BaseMessage[]) => number
  constructor(answers: readonly BaseMessage[], counter: (messages: BaseMessage[]) => number) {
    super({})
    this.answers = answers
    this.counter = counter
  }
  _llmType(): string {
    return 'scripted'
  }
  // createAgent binds the tools; the script already knows every call.
  override bindTools(): this {
    return this
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.sent.push(messages.map(fromLangChain))
    const answer = this.answers[this.sent.length - 1] ?? new AIMessage('')
    return { generations: [{ text: lcText(answer), message: answer }] }
  }
  /** contextEditingMiddleware's `tokenCountMethod: 'model'` asks the model to count. */
  async getNumTokensFromMessages(messages: BaseMessage[]): Promise<{ totalCount: number }> {
    return { totalCount: this.counter(messages) }
  }
}

/** Stub summariser model: "SUMMARY 1", "SUMMARY 2", … like the lab's stub summariser. */
class SummaryModel extends BaseChatModel {
  calls = 0
  constructor() {
    super({})
  }
  _llmType(): string {
    return 'summary'
  }
  async _generate(): Promise<ChatResult> {
    this.calls++
    const message = new AIMessage(`SUMMARY ${this.calls}`)
    return { generations: [{ text: lcText(message), message }] }
  }
}

function labSummarizer(): Summarizer {
  let n = 0
  return {
    id: 'stub',
    label: 'stub summariser',
    isLlm: true,
    summarize: async () => ({ ok: true, text: `SUMMARY ${++n}` }),
  }
}

/** Agreement of LangChain's calls with one lab replay. */
export interface Agreement {
  /** Calls where both sides sent exactly the same messages. */
  readonly agreeing: number
  /**
   * Calls that differ only before a common tail, where LangChain sent a summary and the lab kept
   * the messages (its own earlier summary, or a span the summary would not shrink): the export
   * warns that LangChain summarises whenever its trigger holds. Counted apart, never as agreeing.
   */
  readonly summaryPolicy: number
  /** Every other differing call. */
  readonly differing: number
  /** Calls where the lab's projection was smaller than the uncompacted context. */
  readonly compacted: number
  /** The first call counted in `differing`, with both sides' messages. */
  readonly first?: {
    readonly call: number
    readonly langchain: readonly SentMessage[]
    readonly lab: readonly SentMessage[]
  }
}

/** The call-by-call comparison of one transcript under one config. */
export interface Differential {
  /** Model calls replayed (the same on both sides by construction). */
  readonly calls: number
  /** LangChain against the lab under the whole config. */
  readonly full: Agreement
  /**
   * LangChain against the lab under the steps the export carries over (the others are warned
   * as left out): what is left to explain here must be a parameter warning of the export.
   */
  readonly carried: Agreement
  /** Steps the export leaves out (`pipeline[i]` warnings). */
  readonly leftOut: readonly number[]
  /**
   * LangChain against the lab under {@link alignedConfig}: the exported middleware's own meaning
   * in our strategies. A difference here is the lab misreading what the middleware does. A
   * string when the middleware has no exact counterpart among our strategies (why).
   */
  readonly aligned: Agreement | string
  /** Why the transcript was cut short, when it was. */
  readonly cut?: string
}

interface LabCall {
  readonly sent: SentMessage[]
  readonly compacted: boolean
}

/** The lab's replay: the projection at every model call (earlier decisions persist). */
async function labCalls(
  conversation: Conversation,
  config: CompactionConfig,
  counter: TextCounter,
): Promise<LabCall[]> {
  // LangChain's middleware counts the messages it holds, as they are: no hidden prefix, no
  // provider rule (earlier-turn thinking included). The lab is asked the same question here — a
  // conversation with no provider known, and the identity accounting of a bare WorkingView — so the
  // check compares what the export means, not how the provider bills it.
  const neutral: Conversation = {
    ...conversation,
    meta: { format: 'openai-chat', ...(conversation.meta.model ? { model: 'unknown' } : {}) },
  }
  const prepared = prepare(neutral, counter)
  const view = new WorkingView(prepared, 0)
  const deps = { counter, summarizer: labSummarizer() }
  const calls: LabCall[] = []
  let uncompacted = prepared.staticTokens + prepared.systemTokens
  for (let k = 1; k < conversation.messages.length; k++) {
    uncompacted += prepared.messageTokens[k - 1] as number
    if (conversation.messages[k]?.role !== 'assistant') continue
    view.advanceTo(k)
    await runPipeline(view, config, deps, STRATEGY_REGISTRY, { recordNonChanges: false })
    calls.push({ sent: labSent(project(view)), compacted: view.totalTokens < uncompacted })
  }
  return calls
}

/**
 * Whether two calls differ only in what lies before a common tail, where LangChain sent one
 * summary message: its middleware summarised (again) where the lab kept the messages — an
 * earlier summary or a span the summary would not shrink. The export warns about it.
 */
function summaryPolicyOnly(theirs: readonly SentMessage[], ours: readonly SentMessage[]): boolean {
  let a = theirs.length
  let b = ours.length
  while (a > 0 && b > 0 && JSON.stringify(theirs[a - 1]) === JSON.stringify(ours[b - 1])) {
    a--
    b--
  }
  const head = theirs.slice(0, a).filter((m) => m.role !== 'system')
  const system = (x: readonly SentMessage[], n: number) =>
    JSON.stringify(x.slice(0, n).filter((m) => m.role === 'system'))
  return (
    a < theirs.length &&
    head.length === 1 &&
    head[0]?.role === 'user' &&
    /SUMMARY \d+$/.test(head[0].text) &&
    system(theirs, a) === system(ours, b)
  )
}

function agreement(theirs: readonly SentMessage[][], ours: readonly LabCall[]): Agreement {
  let agreeing = 0
  let summaryPolicy = 0
  let first: Agreement['first']
  const n = Math.max(theirs.length, ours.length)
  for (let i = 0; i < n; i++) {
    const a = theirs[i] ?? []
    const b = ours[i]?.sent ?? []
    if (JSON.stringify(a) === JSON.stringify(b)) agreeing++
    else if (summaryPolicyOnly(a, b)) summaryPolicy++
    else first ??= { call: i, langchain: a, lab: b }
  }
  return {
    agreeing,
    summaryPolicy,
    differing: n - agreeing - summaryPolicy,
    compacted: ours.filter((c) => c.compacted).length,
    ...(first ? { first } : {}),
  }
}

/** The steps the LangChain export leaves out: each has a `pipeline[i]` warning. */
function leftOutSteps(config: CompactionConfig): number[] {
  return exportTarget('langchain', config).warnings.flatMap((w) => {
    const m = /^pipeline\[(\d+)\]$/.exec(w.path)
    return m ? [Number(m[1])] : []
  })
}

const nodeRequire = createRequire(import.meta.url)

/** Build the exported middleware with the real package, counting with `count`. */
function exportedMiddleware(
  config: CompactionConfig,
  summaryModel: BaseChatModel,
  count: (messages: BaseMessage[]) => number,
): unknown[] {
  const real = nodeRequire('langchain') as {
    summarizationMiddleware: (o: object) => unknown
    contextEditingMiddleware: (o: object) => unknown
  }
  const langchain = {
    ...real,
    // Same token measure on both sides: the lab's count, through LangChain's own hooks.
    summarizationMiddleware: (o: object) =>
      real.summarizationMiddleware({ ...o, tokenCounter: count }),
    contextEditingMiddleware: (o: object) =>
      real.contextEditingMiddleware({ ...o, tokenCountMethod: 'model' }),
  }
  const text = exportTarget('langchain', config).text.replace(
    /^const summaryModel = .*$/m,
    "const summaryModel = require('stub').summaryModel",
  )
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText
  const exported: { compactionMiddleware?: unknown[] } = {}
  const modules: Record<string, unknown> = { langchain, stub: { summaryModel } }
  new Function('require', 'exports', js)((name: string) => modules[name], exported)
  return exported.compactionMiddleware ?? []
}

/** The messages LangChain's agent loop sends at every model call. */
async function langchainCalls(
  r: Replayable,
  conversation: Conversation,
  config: CompactionConfig,
  counter: TextCounter,
): Promise<SentMessage[][]> {
  const prepared = prepare(conversation, counter)
  const fixed = prepared.staticTokens + prepared.systemTokens
  const count = (messages: BaseMessage[]) =>
    messages.reduce((t, m) => {
      const ir = irOfLangChain(m)
      return ir ? t + priceMessage(canonical(ir, 'x'), counter).total : t
    }, fixed)
  const answers = r.messages.flatMap((m) =>
    m.kind === 'ai'
      ? [
          new AIMessage({
            content: m.text,
            tool_calls: m.calls.map((c) => ({
              id: c.id,
              name: c.name,
              args: c.args as Record<string, unknown>,
            })),
          }),
        ]
      : [],
  )
  const model = new ScriptedModel(answers, count)
  const results = new Map(
    r.messages.flatMap((m) => (m.kind === 'tool' ? [[m.callId, m.text] as const] : [])),
  )
  const names = [
    ...new Set(r.messages.flatMap((m) => (m.kind === 'ai' ? m.calls.map((c) => c.name) : []))),
  ]
  const tools = names.map((name) =>
    tool(
      async (_input: unknown, runtime: { toolCall?: { id?: string } }) =>
        results.get(runtime.toolCall?.id ?? '') ?? '',
      {
        name,
        description: `replays the transcript's ${name} results`,
        schema: z.looseObject({}),
      },
    ),
  )
  const { createAgent } = nodeRequire('langchain') as {
    createAgent: (params: object) => {
      invoke: (input: object, config?: object) => Promise<{ messages: BaseMessage[] }>
    }
  }
  const agent = createAgent({
    model,
    tools,
    ...(r.system ? { systemPrompt: r.system } : {}),
    middleware: exportedMiddleware(config, new SummaryModel(), count),
  })
  let state: BaseMessage[] = []
  for (const m of r.messages) {
    if (m.kind !== 'human') continue
    const result = await agent.invoke(
      { messages: [...state, new HumanMessage(m.text)] },
      { recursionLimit: 10_000 },
    )
    state = result.messages
  }
  return model.sent
}

/** LangChain's `ContextSize` (one object: all keys must hold; an array: any object). */
type ContextSize = { tokens?: number; messages?: number; fraction?: number }

/** The options each exported middleware was built with, read by running the snippet. */
function exportedOptions(config: CompactionConfig): {
  summaries: Record<string, unknown>[]
  edits: Record<string, unknown>[]
} {
  const summaries: Record<string, unknown>[] = []
  const edits: Record<string, unknown>[] = []
  const langchain = {
    ClearToolUsesEdit: class {
      constructor(o: Record<string, unknown>) {
        edits.push(o)
      }
    },
    contextEditingMiddleware: () => ({}),
    summarizationMiddleware: (o: Record<string, unknown>) => {
      summaries.push(o)
      return {}
    },
  }
  const js = ts.transpileModule(exportTarget('langchain', config).text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText
  new Function('require', 'exports', js)(() => langchain, {})
  return { summaries, edits }
}

/** LangChain fires at `tokens >= n`: our "over n − 1". One object, or any of single-key ones. */
function triggerOf(value: unknown): CompactionConfig['pipeline'][number]['trigger'] {
  const list = (Array.isArray(value) ? value : [value]) as ContextSize[]
  const conditions = list.flatMap((c) => [
    ...(c.tokens !== undefined ? [{ kind: 'tokens' as const, over: c.tokens - 1 }] : []),
    ...(c.messages !== undefined ? [{ kind: 'messages' as const, over: c.messages - 1 }] : []),
  ])
  if (list.some((c) => c.fraction !== undefined))
    throw new Error('fraction triggers: no model profile here')
  if (list.length > 1 && list.some((c) => Object.keys(c).length > 1))
    throw new Error('an OR of AND triggers has no single-mode equivalent')
  return { mode: list.length > 1 ? 'any' : 'all', conditions }
}

const LANGCHAIN_DEFAULT_PREFIX = 'Here is a summary of the conversation to date:'

/**
 * The config that means exactly what the exported middleware does, in our strategies' terms:
 * read back from the options the snippet builds (summaries first — LangChain summarises before
 * the model call and edits around it), LangChain's fixed behaviour spelt out (a human message
 * placed first, `<prefix>\n\n<summary>`, no turn or pin protection, no fallback). Every way it
 * differs from `config` is something the export warns about.
 */
export function alignedConfig(
  config: CompactionConfig,
): { readonly config: CompactionConfig } | { readonly unalignable: string } {
  const { summaries, edits } = exportedOptions(config)
  // trimTokensToSummarize keeps the newest tokens of the span it summarises, cutting messages
  // (allowPartial); our summariser input bound takes whole groups. No strategy of ours means it.
  const trimmed = summaries.find(
    (o) =>
      typeof o.trimTokensToSummarize === 'number' &&
      o.trimTokensToSummarize < Number.MAX_SAFE_INTEGER,
  )
  if (trimmed)
    return {
      unalignable: `trimTokensToSummarize ${String(trimmed.trimTokensToSummarize)} cuts the summarised span by tokens, which no strategy of ours does`,
    }
  let trigger: (value: unknown) => CompactionConfig['pipeline'][number]['trigger']
  try {
    for (const o of [...summaries, ...edits]) triggerOf(o.trigger)
    trigger = triggerOf
  } catch (error) {
    return { unalignable: error instanceof Error ? error.message : String(error) }
  }
  const pipeline: CompactionConfig['pipeline'] = [
    ...summaries.map((o) => {
      const keep = (o.keep as { messages: number }).messages
      const prompt = String(o.summaryPrompt).replace(/\n\n\{messages\}$/, '')
      return {
        strategy: 'summarize',
        enabled: true,
        trigger: trigger(o.trigger),
        params: {
          compactionThreshold: null,
          // keep: {messages: 0} summarises everything: our group tail of 0 (messages start at 1).
          ...(keep === 0 ? { preserveRecentGroups: 0 } : { preserveRecentMessages: keep }),
          role: 'user',
          placement: 'first',
          summaryPrefix: `${typeof o.summaryPrefix === 'string' ? o.summaryPrefix : LANGCHAIN_DEFAULT_PREFIX}\n\n`,
          prompt: prompt === '' ? 'Summarize.' : prompt,
          maxSummaryInputTokens: null,
          onFailure: 'fail_open',
          faithful: false,
        },
      }
    }),
    ...edits.map((o) => {
      const when = trigger(o.trigger)
      const tokens = when?.conditions.find((c) => c.kind === 'tokens')
      const messages = when?.conditions.filter((c) => c.kind !== 'tokens') ?? []
      return {
        strategy: 'clear-tool-uses',
        enabled: true,
        ...(messages.length > 0 ? { trigger: { mode: 'all' as const, conditions: messages } } : {}),
        params: {
          triggerInputTokens: tokens?.over ?? null,
          triggerToolUses: null,
          keep: (o.keep as { messages: number }).messages,
          clearAtLeast: 0,
          excludeTools: o.excludeTools as string[],
          clearToolInputs: o.clearToolInputs as boolean,
          placeholder: o.placeholder as string,
        },
      }
    }),
  ]
  return {
    config: {
      ...config,
      protections: { ...config.protections, recentTurns: 0, pinned: [], tools: [] },
      pipeline,
      fallback: { enabled: false, strict: false },
    },
  }
}

/** Replay `conversation` through LangChain and the lab under `config`; compare call by call. */
export async function differential(
  conversation: Conversation,
  config: CompactionConfig,
  counter: TextCounter,
): Promise<Differential> {
  const r = replayable(conversation)
  const lab = labConversation(r)
  const leftOut = leftOutSteps(config)
  const carried: CompactionConfig = {
    ...config,
    pipeline: config.pipeline.map((s, i) => (leftOut.includes(i) ? { ...s, enabled: false } : s)),
  }
  const theirs = await langchainCalls(r, lab, config, counter)
  const full = agreement(theirs, await labCalls(lab, config, counter))
  const carriedAgreement =
    leftOut.length === 0 ? full : agreement(theirs, await labCalls(lab, carried, counter))
  const a = alignedConfig(config)
  const aligned =
    'config' in a ? agreement(theirs, await labCalls(lab, a.config, counter)) : a.unalignable
  return {
    calls: theirs.length,
    full,
    carried: carriedAgreement,
    leftOut,
    aligned,
    ...(r.cut ? { cut: r.cut } : {}),
  }
}
