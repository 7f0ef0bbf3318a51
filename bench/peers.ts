import { pruneMessages, type ModelMessage } from 'ai'
import type { Prepared } from '../src/engine/compaction/prepared.ts'
import type { Conversation, Message, Part } from '../src/engine/model.ts'
import { importerFor } from '../src/formats/index.ts'
import { roundTiming, showTiming, time, type Timing } from './timing.ts'

/**
 * What a user would pick instead (perf.md §4), on the same messages in the same process: Vercel
 * `pruneMessages` and a naive one-pass stale-read stubber, the near-physical-limit reference.
 */

export interface NaiveResult {
  readonly timing: Timing
  readonly stubbed: number
  readonly savedTokens: number
}

export interface PruneResult {
  readonly config: string
  readonly timing: Timing
  readonly messagesLeft: number
}

const STUB = (path: string, later: number) =>
  `[stale read of ${path}; superseded by the read at message #${later}]`

/**
 * Stub every Read result that a later Read of the same path supersedes: one pass over assistant
 * headers (call id → path), one backward pass over tool messages that keeps the newest read per
 * path and copy-on-writes the older ones. Token delta from the cached part counts; the stub is
 * priced by estimate, as in perf.md.
 */
export function stubStaleReads(prepared: Prepared): {
  messages: Message[]
  stubbed: number
  saved: number
} {
  const messages = prepared.conversation.messages
  const readPath = new Map<string, string>()
  for (const m of messages) {
    if (m.role !== 'assistant') continue
    for (const p of m.parts) {
      if (p.kind !== 'tool_call' || p.name !== 'Read' || !p.callId) continue
      const path = (p.args as { file_path?: unknown } | undefined)?.file_path
      if (typeof path === 'string') readPath.set(p.callId, path)
    }
  }
  const latest = new Map<string, number>()
  const out = messages.slice()
  let saved = 0
  let stubbed = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message
    if (m.role !== 'tool') continue
    let parts: Part[] | null = null
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const part = m.parts[j] as Part
      if (part.kind !== 'tool_result' || !part.callId) continue
      const path = readPath.get(part.callId)
      if (path === undefined) continue
      const later = latest.get(path)
      if (later === undefined) {
        latest.set(path, i)
        continue
      }
      const stub = STUB(path, later)
      parts ??= m.parts.slice()
      parts[j] = { ...part, content: [{ kind: 'text', text: stub }] }
      saved += (prepared.partTokens[i]?.[j] ?? 0) - Math.ceil(stub.length / 4)
      stubbed++
    }
    if (parts) out[i] = { ...m, parts }
  }
  return { messages: out, stubbed, saved }
}

export function benchNaive(prepared: Prepared, runs: number): NaiveResult {
  let last = stubStaleReads(prepared)
  const timing = roundTiming(
    time(() => (last = stubStaleReads(prepared)), runs, 3),
    3,
  )
  console.log(
    `  naive stale-read stubber: ${showTiming(timing)} → ${last.stubbed} stubbed, ${last.saved} tokens saved`,
  )
  return { timing, stubbed: last.stubbed, savedTokens: last.saved }
}

/**
 * Our conversation as AI SDK ModelMessages, through our own ai-sdk serializer. Claude Code
 * results carry no tool name and the serializer writes `toolName: ''` for them, which would make
 * `pruneMessages`' per-tool filter keep every result while dropping its call; the names are
 * filled in from the paired calls here (outside any timing) and the count is reported.
 */
export function toModelMessages(conversation: Conversation): {
  messages: ModelMessage[]
  bytes: number
  namesFilled: number
} {
  const text = importerFor('ai-sdk').serialize(conversation)
  const messages = JSON.parse(text) as ModelMessage[]
  const names = new Map<string, string>()
  let namesFilled = 0
  for (const m of messages) {
    if (typeof m.content === 'string') continue
    for (const p of m.content) {
      if (p.type === 'tool-call') names.set(p.toolCallId, p.toolName)
      if (p.type === 'tool-result' && !p.toolName && names.has(p.toolCallId)) {
        ;(p as { toolName: string }).toolName = names.get(p.toolCallId) as string
        namesFilled++
      }
    }
  }
  return { messages, bytes: Buffer.byteLength(text), namesFilled }
}

type PruneOptions = Omit<Parameters<typeof pruneMessages>[0], 'messages'>

/** The three configurations of perf.md §4, with Claude Code's `Read` for `read_file`. */
const PRUNE_CASES: [string, PruneOptions][] = [
  [
    "reasoning 'before-last-message', toolCalls 'before-last-20-messages'",
    { reasoning: 'before-last-message', toolCalls: 'before-last-20-messages' },
  ],
  [
    "toolCalls [{ type: 'before-last-40-messages', tools: ['Read'] }]",
    { toolCalls: [{ type: 'before-last-40-messages', tools: ['Read'] }] },
  ],
  ["toolCalls 'all'", { toolCalls: 'all' }],
]

export function benchPrune(messages: ModelMessage[], runs: number): PruneResult[] {
  return PRUNE_CASES.map(([config, options]) => {
    let left = pruneMessages({ messages, ...options })
    const timing = roundTiming(time(() => (left = pruneMessages({ messages, ...options })), runs))
    console.log(`  pruneMessages(${config}): ${showTiming(timing)} → ${left.length} messages left`)
    return { config, timing, messagesLeft: left.length }
  })
}
