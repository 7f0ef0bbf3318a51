/**
 * Files that hold many conversations: a tau-bench results array (one trajectory per task and
 * trial), an aider history (one session per start of aider), a Claude Code session with inline
 * sub-agent runs (sidechains: each ran in a context of its own), and an API capture that recorded
 * several conversations. Each conversation is an *item*; `listItems` names and sizes them and
 * `importItem` parses one. A file with one conversation has no item list (null).
 *
 * Items are cut out of the sniffed input and parsed by the format's own importer, so an item
 * reads exactly as a file holding only that conversation would — and writes back as one.
 */
import type { Conversation, FormatId } from '../engine/model.ts'
import { sessions as aiderSessions, type AiderSession } from './aider/parse.ts'
import { threadsOf } from './claude-code/threads.ts'
import { isConversationExchange } from './sniff.ts'
import type { CapturedExchange, ImportOptions, ParseWarning, SniffedInput } from './types.ts'
import { arr, isObject, str, warning } from './util.ts'

/** The kinds of multi-conversation files. */
export type ItemsKind = 'tau-bench' | 'aider-sessions' | 'claude-code-threads' | 'capture-sessions'

/** One conversation of a multi-item file, as the picker and `inspect --json` list it. */
export interface FileItem {
  /** 0-based: what `--item N` and `importItem` take. */
  readonly index: number
  readonly name: string
  readonly messages: number
  /** Estimated tokens (chars/4) of the item's conversation. */
  readonly tokens?: number
}

export interface ItemListing {
  readonly kind: ItemsKind
  /** "200 tau-bench trajectories", "3 aider sessions", … */
  readonly label: string
  readonly items: readonly FileItem[]
  /** What listing noticed (an empty aider session, an item that does not parse). */
  readonly warnings: readonly ParseWarning[]
}

/** A multi-item file cut into its items (before they are parsed). */
export interface Split {
  readonly kind: ItemsKind
  readonly format: FormatId
  readonly count: number
  /** The item's name (before parsing: from the envelope). */
  name(index: number): string
  /** The item as an input of its own, for the format's importer. */
  input(index: number): SniffedInput
  readonly warnings: readonly ParseWarning[]
}

const cutName = (text: string, max = 70): string => {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

/** tau-bench: a JSON array whose every element has a `traj` array. */
function tauBench(input: SniffedInput): Split | null {
  if (input.kind !== 'json' || input.exchange || !Array.isArray(input.value)) return null
  const all = input.value
  if (all.length < 2 || !all.every((e) => isObject(e) && Array.isArray(e.traj))) return null
  return {
    kind: 'tau-bench',
    format: 'openai-chat',
    count: all.length,
    name: (i) => {
      const r = all[i] as Record<string, unknown>
      const parts = [
        r.task_id !== undefined ? `task ${String(r.task_id)}` : `result #${i + 1}`,
        r.trial !== undefined ? `trial ${String(r.trial)}` : '',
        r.reward !== undefined ? `reward ${String(r.reward)}` : '',
      ]
      return parts.filter(Boolean).join(' · ')
    },
    input: (i) => ({ kind: 'json', text: input.text, value: [all[i]] }),
    warnings: [],
  }
}

/** aider: one item per session; a session with nothing in it is noted, not listed. */
function aider(input: SniffedInput): Split | null {
  if (input.kind !== 'text') return null
  const text = input.text.replace(/\r\n/g, '\n')
  const all = aiderSessions(text)
  const warnings: ParseWarning[] = []
  const kept: AiderSession[] = []
  for (const s of all) {
    const body = text
      .slice(s.start, s.end)
      .split('\n')
      .slice(s.line === 0 ? 0 : 1)
      .join('\n')
    if (body.trim() === '') {
      warnings.push(
        warning(
          Math.max(s.line, 1),
          0,
          `the aider session at line ${s.line}${s.startedAt ? ` (started ${s.startedAt})` : ''} is empty (aider writes the header when it starts): not listed as an item`,
        ),
      )
    } else kept.push(s)
  }
  if (kept.length < 2) return null
  return {
    kind: 'aider-sessions',
    format: 'aider',
    count: kept.length,
    name: (i) => {
      const s = kept[i] as AiderSession
      return s.startedAt ? `session started ${s.startedAt}` : 'text before the first session'
    },
    input: (i) => {
      const s = kept[i] as AiderSession
      return { kind: 'text', text: text.slice(s.start, s.end) }
    },
    warnings,
  }
}

/** Claude Code: the main agent's lines, then each sub-agent run's (sidechain) lines. */
function claudeThreads(input: SniffedInput, options: ImportOptions): Split | null {
  if (input.kind !== 'jsonl') return null
  const threads = threadsOf(input.lines, options.fileName)
  const order: (string | undefined)[] = [undefined]
  for (const t of threads) if (!order.includes(t)) order.push(t)
  if (order.length < 2) return null
  // The main agent is an item when it said anything (a file may hold sub-agent runs only).
  const hasMain = input.lines.some(
    (l, i) =>
      threads[i] === undefined &&
      isObject(l.value) &&
      (l.value.type === 'user' || l.value.type === 'assistant'),
  )
  const labels = hasMain ? order : order.slice(1)
  if (labels.length < 2) return null
  const firstPrompt = (label: string | undefined): string => {
    const at = threads.findIndex((t) => t === label)
    const v = input.lines[at]?.value
    const message = isObject(v) && isObject(v.message) ? v.message : undefined
    const content = message?.content
    const text =
      typeof content === 'string'
        ? content
        : arr(content)
            .map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : ''))
            .join(' ')
    return cutName(text, 60)
  }
  return {
    kind: 'claude-code-threads',
    format: 'claude-code',
    count: labels.length,
    name: (i) => {
      const label = labels[i]
      if (label === undefined) return 'main conversation'
      const prompt = firstPrompt(label)
      return `sub-agent ${label}${prompt ? `: ${prompt}` : ''}`
    },
    input: (i) => {
      const label = labels[i]
      // The main agent keeps every line that is no sub-agent's (titles, system lines, …).
      const lines = input.lines.filter((_, k) => threads[k] === label)
      return { kind: 'jsonl', text: input.text, lines, bad: label === undefined ? input.bad : [] }
    },
    warnings: [],
  }
}

/** Text of a message in any provider's shape: `content` strings, `text` fields of blocks/parts. */
function textOf(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value
  if (depth > 4) return ''
  if (Array.isArray(value)) return value.map((v) => textOf(v, depth + 1)).join('\n')
  if (!isObject(value)) return ''
  if (typeof value.text === 'string') return value.text
  return textOf(value.content ?? value.parts, depth + 1)
}

/**
 * What tells conversations apart: the text of the first user message (a string `input` for the
 * Responses API). Text, not JSON: a conversation continued with another provider (OpenAI messages,
 * then Gemini contents) opens with the same words in another shape, and stays one conversation.
 */
function openingOf(request: unknown): string | null {
  if (!isObject(request)) return null
  if (typeof request.input === 'string') return request.input.trim()
  const list = Array.isArray(request.messages)
    ? request.messages
    : Array.isArray(request.contents)
      ? request.contents
      : Array.isArray(request.input)
        ? request.input
        : []
  const first = list.find((m) => !isObject(m) || (m.role !== 'system' && m.role !== 'developer'))
  // A history that opens with something else (a provider's compaction item, a summary) is the
  // continuation of a conversation already under way: it has no opening of its own.
  if (!isObject(first) || first.role !== 'user') return null
  return textOf(first).trim()
}

/** An API capture: one item per conversation (requests that open with the same message). */
function captureSessions(input: SniffedInput): Split | null {
  if (input.kind !== 'json' || !input.exchange?.all) return null
  const { exchange } = input
  const all = exchange.all ?? []
  const sessions: { key: string; last: number; requests: number }[] = []
  all.forEach((e: CapturedExchange, i) => {
    if (!isConversationExchange(e)) return
    const key = openingOf(e.request)
    const found = key === null ? sessions[sessions.length - 1] : sessions.find((s) => s.key === key)
    if (found) {
      found.last = i
      found.requests++
    } else sessions.push({ key: key ?? '', last: i, requests: 1 })
  })
  if (sessions.length < 2) return null
  return {
    kind: 'capture-sessions',
    format: 'openai-chat', // decided by detection on the item (see importItem)
    count: sessions.length,
    name: (i) => {
      const s = sessions[i] as { key: string; last: number; requests: number }
      const e = all[s.last] as CapturedExchange
      const model = isObject(e.request) ? str(e.request.model) : undefined
      return [
        `conversation ${i + 1}`,
        `${s.requests} request${s.requests === 1 ? '' : 's'}`,
        model ?? '',
        e.url ? cutName(e.url, 50) : '',
      ]
        .filter(Boolean)
        .join(' · ')
    },
    input: (i) => {
      const s = sessions[i] as { last: number }
      const e = all[s.last] as CapturedExchange
      return {
        kind: 'json',
        text: input.text,
        value: e.request,
        exchange: {
          wrapper: exchange.wrapper,
          request: e.request,
          response: e.response,
          url: e.url,
          count: all.length,
          used: s.last + 1,
        },
      }
    },
    warnings: [],
  }
}

/** Cut a sniffed input into items, or null when it holds one conversation. */
export function splitItems(
  input: SniffedInput,
  format: FormatId | undefined,
  options: ImportOptions = {},
): Split | null {
  switch (format) {
    case 'openai-chat':
      return tauBench(input) ?? captureSessions(input)
    case 'aider':
      return aider(input)
    case 'claude-code':
      return claudeThreads(input, options)
    default:
      return captureSessions(input)
  }
}

/**
 * Estimated size of a parsed item: the characters of its text, arguments and results over 4 (the
 * instant estimate's rule, without its per-message framing — a list of hundreds of items is sized
 * on every load, and the loaded item gets its exact count anyway).
 */
export function itemTokens(conversation: Conversation): number {
  let chars = 0
  for (const p of conversation.system) chars += p.text.length
  for (const m of conversation.messages)
    for (const p of m.parts) {
      if (p.kind === 'text' || p.kind === 'reasoning') chars += p.text.length
      else if (p.kind === 'tool_call') chars += p.name.length + p.argsRaw.length
      else if (p.kind === 'tool_result')
        for (const c of p.content) if (c.kind === 'text') chars += c.text.length
    }
  return Math.ceil(chars / 4)
}
