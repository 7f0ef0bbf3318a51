import { z } from 'zod'
import type { StrategyContext } from '../../compaction/context.ts'
import { flatPart, partIndexOf, type Prepared } from '../../compaction/prepared.ts'
import type { Message, Part, ResultContent, ToolResultPart } from '../../model.ts'
import type { PartRef } from '../../pairing.ts'
import { liveMessages } from '../preserve-tail.ts'

/**
 * What the three @falai/agent tiers share (`CompactionEngine`, engines.md §4): the options and
 * their validation, falai's own token estimate, and the "run only at or over the threshold" gate.
 */

/** falai's option checks, with its own error texts (`validateOptions` throws these). */
const THRESHOLD_MESSAGE = 'compactionThreshold must be between 0.5 and 0.95'

export const falaiOptions = {
  /** falai's required `maxTokens`; when absent the usable window stands in for it. */
  maxTokens: z.number().positive('maxTokens must be > 0').optional(),
  compactionThreshold: z
    .number()
    .min(0.5, THRESHOLD_MESSAGE)
    .max(0.95, THRESHOLD_MESSAGE)
    .default(0.8),
  preserveRecentCount: z
    .number()
    .int('preserveRecentCount must be a whole number of messages')
    .min(2, 'preserveRecentCount must be >= 2')
    .default(4),
  faithful: z.boolean().default(false),
}

export interface FalaiGateParams {
  readonly maxTokens?: number | undefined
  readonly compactionThreshold: number | null
  readonly faithful: boolean
}

/** The tier gate: falai runs a tier only while its estimate is at or over the threshold. */
export interface Gate {
  readonly measure: number
  readonly threshold: number
  readonly under: boolean
  /** "falai's estimate 3,120 (chars/4 …) vs threshold 2,400 (0.8 × 3,000)". */
  readonly text: string
  readonly measureName: string
}

export function falaiGate(ctx: StrategyContext, p: FalaiGateParams): Gate {
  const maxTokens = p.maxTokens ?? ctx.window.usable
  const ratio = p.compactionThreshold ?? 1
  const threshold = maxTokens * ratio
  const measure = p.faithful ? falaiEstimate(ctx) : ctx.totalTokens()
  const measureName = p.faithful
    ? "falai's estimate (chars/4 with +4 per item, tool-call arguments not counted)"
    : 'the exact token count'
  const source = p.maxTokens === undefined ? 'the usable window' : 'maxTokens'
  return {
    measure,
    threshold,
    under: measure < threshold,
    measureName,
    text: `${measureName} ${fmt(measure)} vs threshold ${fmt(threshold)} (${ratio} × ${fmt(maxTokens)}, ${source})`,
  }
}

/**
 * falai runs a tier only at or over its threshold: the gate when the tier runs; when under,
 * the skip is recorded (with the measure and the threshold) and null says the tier stops.
 */
export function openTier(ctx: StrategyContext, p: FalaiGateParams, tier: string): Gate | null {
  const gate = falaiGate(ctx, p)
  if (!gate.under) return gate
  ctx.skip(
    lastGroupIndex(ctx),
    'below_threshold',
    `${tier} not needed: ${gate.text} — falai stops at the first tier under the threshold`,
  )
  return null
}

/** 12345.6 → "12,345.6": deterministic (no locale). */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  // Whole numbers (nearly every figure in a sentence) are grouped without the regex below; the
  // bound keeps n × 10 exact, so rounding would have left n as it is.
  if (Number.isInteger(n) && Math.abs(n) < 1e14) return groupThousands(n)
  const rounded = Math.round(n * 10) / 10
  const [int, frac] = String(Math.abs(rounded)).split('.')
  const grouped = (int ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${rounded < 0 ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`
}

function groupThousands(n: number): string {
  const digits = String(Math.abs(n))
  let out = digits.slice(0, digits.length % 3 || 3)
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`
  return n < 0 ? `-${out}` : out
}

// ---- falai's estimate --------------------------------------------------------------------

/** Text of a result as falai's string content: text blocks joined by newlines. */
export function resultText(part: ToolResultPart): string {
  // One text block (nearly every result): its own string, not a copy joined anew each re-plan.
  const only = part.content.length === 1 ? part.content[0] : undefined
  if (only?.kind === 'text') return only.text
  return part.content
    .filter((c): c is Extract<ResultContent, { kind: 'text' }> => c.kind === 'text')
    .map((c) => c.text)
    .join('\n')
}

/** The same result with its text replaced (non-text blocks — images — kept, never cut). */
export function withResultText(part: ToolResultPart, text: string): ToolResultPart {
  return {
    ...part,
    content: [{ kind: 'text', text }, ...part.content.filter((c) => c.kind !== 'text')],
  }
}

/** Characters falai would count for non-text content (it `JSON.stringify`s the payload). */
function nonTextChars(c: ResultContent | Part): number {
  switch (c.kind) {
    case 'image':
    case 'file':
      return (c.data ?? c.url ?? c.fileId ?? '').length
    case 'opaque':
      return c.opaque.bytes
    default:
      return 0
  }
}

/**
 * Per prepared conversation, the name of the call each result answers, by flat part number (''
 * for an orphan or a part that is no result). The tiers ask for the name of every live result on
 * every re-plan, and walking the pairing for each was most of micro_compact's own time.
 */
const callNames = new WeakMap<Prepared, readonly string[]>()

export function callNamesOf(ctx: StrategyContext): readonly string[] {
  const prepared = ctx.view.prepared
  const hit = callNames.get(prepared)
  if (hit) return hit
  const { calls, results } = ctx.pairing
  const { resultAt } = partIndexOf(prepared)
  const names = new Array<string>(resultAt.length).fill('')
  for (let k = 0; k < resultAt.length; k++) {
    const r = results[resultAt[k] as number]
    names[k] = (r && r.call >= 0 ? calls[r.call]?.name : undefined) ?? ''
  }
  callNames.set(prepared, names)
  return names
}

/** Tool name of a result: its own, else its call's. */
export function resultName(ctx: StrategyContext, ref: PartRef, part: ToolResultPart): string {
  if (part.name) return part.name
  const k = flatPart(ctx.view.parts, ref.message, ref.part)
  return k >= 0 ? (callNamesOf(ctx)[k] as string) : ''
}

/**
 * falai's characters for one message as it is now: each tool result is one history item (content +
 * tool name + 4); the rest of the message is one item (text + 4; an assistant message with only
 * tool calls has `content: null`, which falai stringifies as `""` — 2 chars). Tool-call arguments
 * are not counted: that is falai's estimate, bug included.
 */
export function falaiMessageChars(ctx: StrategyContext, message: number): number {
  const msg = ctx.conversation.messages[message]
  if (!msg) return 0
  let chars = 0
  let text = ''
  let others = 0
  let calls = 0
  msg.parts.forEach((_, i) => {
    const ref = { message, part: i }
    const part = ctx.view.part(ref)
    if (!part) return
    if (part.kind === 'tool_result') {
      chars += resultText(part).length + resultName(ctx, ref, part).length + 4
      for (const c of part.content) chars += nonTextChars(c)
      return
    }
    others++
    if (part.kind === 'text') text += part.text
    else if (part.kind === 'tool_call') calls++
    else chars += nonTextChars(part)
  })
  const resultsOnly = others === 0 && msg.parts.length > 0
  if (!resultsOnly) {
    chars += text.length === 0 && calls > 0 && msg.role === 'assistant' ? 2 : text.length
    chars += 4
  }
  return chars
}

/** falai's characters per live group (the top-level system prompt is one system item). */
export function falaiGroupChars(ctx: StrategyContext, group: number): number {
  const g = ctx.view.prepared.grouping.groups[group]
  if (!g || ctx.view.isExcluded(group)) return 0
  if (g.kind === 'system' && g.messages.length === 0) {
    return ctx.conversation.system.map((b) => b.text).join('\n').length + 4
  }
  let chars = 0
  for (const m of ctx.view.messagesOf(group)) chars += falaiMessageChars(ctx, m)
  return chars
}

/** Characters of summaries inserted so far (each a `system` item in falai's history). */
function insertedChars(ctx: StrategyContext): number {
  let chars = 0
  for (const s of ctx.view.summaries()) {
    for (const p of s.message.parts) if (p.kind === 'text') chars += p.text.length
    chars += 4
  }
  return chars
}

/** falai's total characters of the current projection. */
export function falaiChars(ctx: StrategyContext): number {
  let chars = insertedChars(ctx)
  const system = ctx.groups().find((g) => g.kind === 'system' && g.messages.length === 0)
  if (system) chars += falaiGroupChars(ctx, system.index)
  for (const m of liveMessages(ctx)) chars += falaiMessageChars(ctx, m)
  return chars
}

/** `CompactionEngine.estimateTokens`: ceil(total chars / 4), 0 for an empty history. */
export function falaiEstimate(ctx: StrategyContext): number {
  return Math.ceil(falaiChars(ctx) / 4)
}

/** Where to hang a decision about the whole run: the newest visible group. */
export function lastGroupIndex(ctx: StrategyContext): number {
  const groups = ctx.groups()
  return groups[groups.length - 1]?.index ?? 0
}

/**
 * Visit every live tool result, oldest first, with its group. One visitor per run instead of an
 * array of `{ref, group, part}` objects (5,000 per tier per re-plan on the bench's transcript).
 * The visitor may replace the part it is given: later parts are read after it returns.
 */
export function eachLiveResult(
  ctx: StrategyContext,
  visit: (ref: PartRef, group: number, part: ToolResultPart) => void,
): void {
  const { view } = ctx
  const { groupOfMessage } = view.prepared.grouping
  const { messages } = ctx.conversation
  const holds = holdsResults(view.prepared)
  const limit = view.limit
  for (let m = 0; m < limit; m++) {
    // A message no step has changed is read from the conversation: one without results (every
    // other message of a tool loop) has nothing to visit, and the others need no override lookup.
    const changed = view.hasOverrides(m)
    if (!changed && holds[m] === 0) continue
    const group = groupOfMessage[m] as number
    if (view.isExcluded(group)) continue
    const parts = (messages[m] as Message).parts
    for (let i = 0; i < parts.length; i++) {
      const part = changed ? view.partAt(m, i) : (parts[i] as Part)
      // The shared address: it ends up in the result's decision (see compaction/refs.ts).
      if (part?.kind === 'tool_result') visit(view.refAt(m, i), group, part)
    }
  }
}

/** Per prepared conversation: 1 for a message with a tool result among its own parts. */
const resultHolders = new WeakMap<Prepared, Uint8Array>()

function holdsResults(prepared: Prepared): Uint8Array {
  const hit = resultHolders.get(prepared)
  if (hit) return hit
  const { messages } = prepared.conversation
  const holds = new Uint8Array(messages.length)
  for (let m = 0; m < messages.length; m++)
    holds[m] = (messages[m] as Message).parts.some((p) => p.kind === 'tool_result') ? 1 : 0
  resultHolders.set(prepared, holds)
  return holds
}
