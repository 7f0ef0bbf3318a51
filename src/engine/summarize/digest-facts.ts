import type { Message, ToolCallPart } from '../model.ts'
import { toolResultText } from './transcript.ts'

/**
 * The facts the offline digest (digest.ts) is built from: user requests, tools, files, commands,
 * errors, the latest assistant text and earlier summaries, read from a summary request's messages.
 */

/** Argument keys that name a file (Claude Code, Cursor, Gemini CLI, OpenHands, SWE-agent, …). */
const FILE_KEYS = [
  'file_path',
  'filePath',
  'path',
  'target_file',
  'targetFile',
  'filename',
  'notebook_path',
  'absolute_path',
  'file',
]
const FILE_LIST_KEYS = ['paths', 'file_paths', 'filePaths', 'files']
/** Tools whose `command`/`cmd` argument is a shell command (not e.g. str_replace_editor's verb). */
const SHELL_TOOL = /bash|shell|exec|terminal|powershell|run_command|^cmd$/i
/** apply_patch (Codex) names its files inside the patch text. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm

/** The facts the digest is built from, gathered in one pass over the messages. */
export interface Facts {
  readonly messages: number
  readonly userRequests: readonly string[]
  readonly toolCounts: ReadonlyMap<string, number>
  readonly toolCalls: number
  readonly toolResults: number
  readonly files: readonly string[]
  readonly commands: readonly string[]
  readonly errors: readonly string[]
  readonly latest: string | null
  readonly earlierSummaries: readonly string[]
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function messageText(message: Message): string {
  const texts: string[] = []
  for (const part of message.parts) if (part.kind === 'text') texts.push(part.text)
  return texts.join('\n')
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function asPath(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const path = value.trim()
  return path !== '' && path.length <= 1_000 && !path.includes('\n') ? path : null
}

function filesOf(call: ToolCallPart): string[] {
  const found: string[] = []
  const args = call.args
  if (isRecord(args)) {
    for (const key of FILE_KEYS) {
      const path = asPath(args[key])
      if (path) found.push(path)
    }
    for (const key of FILE_LIST_KEYS) {
      const list = args[key]
      if (Array.isArray(list)) {
        for (const item of list) {
          const path = asPath(item)
          if (path) found.push(path)
        }
      }
    }
  }
  if (call.argsRaw.includes('*** ')) {
    // apply_patch: as raw text (custom tool) or inside a JSON string ({"input": "*** Begin Patch…"}).
    const patch =
      isRecord(args) && typeof args.input === 'string'
        ? args.input
        : isRecord(args) && typeof args.patch === 'string'
          ? args.patch
          : call.argsRaw
    for (const match of patch.matchAll(PATCH_FILE)) {
      const path = asPath(match[1] ?? match[2])
      if (path) found.push(path)
    }
  }
  return found
}

function commandOf(call: ToolCallPart): string | null {
  if (!SHELL_TOOL.test(call.name) && call.callType !== 'local_shell') return null
  const args = call.args
  if (!isRecord(args)) return null
  const action = isRecord(args.action) ? args.action : null
  const value = args.command ?? args.cmd ?? action?.command
  if (typeof value === 'string') return oneLine(value) || null
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    const argv = value as readonly string[]
    // ["bash", "-lc", "ls -la"] → "ls -la": the script is what the agent wrote.
    const last = argv[argv.length - 1]
    if (argv.length >= 3 && /^-\w*c$/.test(argv[argv.length - 2] ?? '') && last !== undefined) {
      return oneLine(last) || null
    }
    return oneLine(argv.join(' ')) || null
  }
  return null
}

function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const trimmed = line.trim()
    if (trimmed !== '') return trimmed
  }
  return ''
}

/** A tool call or an errored result of one message, as the digest reads it. */
export type Item =
  | {
      readonly kind: 'call'
      readonly name: string
      readonly callId: string | null
      readonly files: readonly string[]
      readonly command: string | null
    }
  | {
      readonly kind: 'error'
      readonly name: string | undefined
      readonly callId: string | null
      readonly line: string
    }

/** What one message gives the digest, whatever else the request holds. */
export interface MessageFacts {
  readonly summary: string | null
  readonly request: string | null
  readonly latest: string | null
  readonly calls: number
  readonly results: number
  /** Tool calls and errored results, in part order (a result's name may come from a call before it). */
  readonly items: readonly Item[]
}

const NONE: readonly never[] = []

export function readMessage(message: Message): MessageFacts {
  const text = messageText(message).trim()
  let summary: string | null = null
  let request: string | null = null
  let latest: string | null = null
  if (message.summaryOf) {
    if (text) summary = text
  } else if (
    message.role === 'user' &&
    !message.injected &&
    message.sidechain === undefined &&
    text
  ) {
    request = oneLine(text)
  } else if (message.role === 'assistant' && message.sidechain === undefined && text) {
    latest = text
  }
  let calls = 0
  let results = 0
  let items: Item[] | null = null
  for (const part of message.parts) {
    if (part.kind === 'tool_call') {
      calls++
      const files = filesOf(part)
      ;(items ??= []).push({
        kind: 'call',
        name: part.name,
        callId: part.callId,
        files: files.length > 0 ? files : NONE,
        command: commandOf(part),
      })
    } else if (part.kind === 'tool_result') {
      results++
      if (part.isError) {
        const line = firstLine(toolResultText(part.content)) || '(no error text)'
        ;(items ??= []).push({ kind: 'error', name: part.name, callId: part.callId, line })
      }
    }
  }
  return { summary, request, latest, calls, results, items: items ?? NONE }
}

/** Do two messages give the digest the same facts (a stubbed or cleared copy mostly does)? */
export function sameFacts(a: MessageFacts, b: MessageFacts): boolean {
  if (
    a.summary !== b.summary ||
    a.request !== b.request ||
    a.latest !== b.latest ||
    a.calls !== b.calls ||
    a.results !== b.results ||
    a.items.length !== b.items.length
  )
    return false
  for (let i = 0; i < a.items.length; i++)
    if (!sameItem(a.items[i] as Item, b.items[i] as Item)) return false
  return true
}

function sameItem(a: Item, b: Item): boolean {
  if (a.kind === 'call')
    return (
      b.kind === 'call' &&
      a.name === b.name &&
      a.callId === b.callId &&
      a.command === b.command &&
      a.files.length === b.files.length &&
      a.files.every((f, i) => f === b.files[i])
    )
  return b.kind === 'error' && a.name === b.name && a.callId === b.callId && a.line === b.line
}
