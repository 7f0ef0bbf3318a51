import type { Message, ToolCallPart } from '../model.ts'
import { sliceSafe, toolResultText } from './transcript.ts'
import type { Summarizer, SummaryRequest } from './types.ts'

/**
 * The offline digest: an extractive, deterministic stand-in for an LLM summary. It never calls a
 * model (or the network), so it is the default summariser and the one tests and the CLI use. Its
 * output says so in its first line, so nobody mistakes it for a model's summary.
 *
 * Pure: no clock, no randomness, ES2022 only. The same request always gives the same text.
 */

export interface DigestOptions {
  /** Hard bound on the digest's length in chars. Default 6,000. */
  readonly maxChars?: number
  /** Most recent real user requests listed (earlier ones are counted). Default 10. */
  readonly maxUserRequests?: number
  /** Each user request is cut to this many chars. Default 200. */
  readonly maxRequestChars?: number
  /** Distinct tool names listed (the rest are counted). Default 25. */
  readonly maxTools?: number
  /** Files listed, in first-seen order (the rest are counted). Default 30. */
  readonly maxFiles?: number
  /** Most recent shell commands listed. Default 10. */
  readonly maxCommands?: number
  /** Most recent tool errors listed. Default 10. */
  readonly maxErrors?: number
  /** Each file path, command and error line is cut to this many chars. Default 200. */
  readonly maxLineChars?: number
  /** The latest assistant text is cut to this many chars. Default 400. */
  readonly maxLatestChars?: number
  /** A carried-forward previous summary is cut to this many chars. Default 2,000. */
  readonly maxPreviousChars?: number
}

export const DIGEST_ID = 'digest'
export const DIGEST_LABEL = 'Offline digest (extractive, not an LLM)'
export const DIGEST_HEADER =
  'Offline digest: extractive, not a model summary (no LLM was called; lines are copied from the conversation).'

type Caps = Required<Omit<DigestOptions, 'maxChars'>>

const DEFAULT_CAPS: Caps = {
  maxUserRequests: 10,
  maxRequestChars: 200,
  maxTools: 25,
  maxFiles: 30,
  maxCommands: 10,
  maxErrors: 10,
  maxLineChars: 200,
  maxLatestChars: 400,
  maxPreviousChars: 2_000,
}
const DEFAULT_MAX_CHARS = 6_000

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
interface Facts {
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

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${sliceSafe(text, Math.max(0, max - 1))}…`
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

function gather(messages: readonly Message[]): Facts {
  const userRequests: string[] = []
  const toolCounts = new Map<string, number>()
  const callNames = new Map<string, string>()
  const files: string[] = []
  const seenFiles = new Set<string>()
  const commands: string[] = []
  const errors: string[] = []
  const earlierSummaries: string[] = []
  let latest: string | null = null
  let toolCalls = 0
  let toolResults = 0

  for (const message of messages) {
    const text = messageText(message).trim()
    if (message.summaryOf) {
      if (text) earlierSummaries.push(text)
    } else if (
      message.role === 'user' &&
      !message.injected &&
      message.sidechain === undefined &&
      text
    ) {
      userRequests.push(oneLine(text))
    } else if (message.role === 'assistant' && message.sidechain === undefined && text) {
      latest = text
    }
    for (const part of message.parts) {
      if (part.kind === 'tool_call') {
        toolCalls++
        toolCounts.set(part.name, (toolCounts.get(part.name) ?? 0) + 1)
        if (part.callId !== null) callNames.set(part.callId, part.name)
        for (const path of filesOf(part)) {
          if (!seenFiles.has(path)) {
            seenFiles.add(path)
            files.push(path)
          }
        }
        const command = commandOf(part)
        if (command) commands.push(command)
      } else if (part.kind === 'tool_result') {
        toolResults++
        if (part.isError) {
          const name = part.name ?? (part.callId !== null ? callNames.get(part.callId) : undefined)
          const line = firstLine(toolResultText(part.content)) || '(no error text)'
          errors.push(name ? `${name}: ${line}` : line)
        }
      }
    }
  }
  return {
    messages: messages.length,
    userRequests,
    toolCounts,
    toolCalls,
    toolResults,
    files,
    commands,
    errors,
    latest,
    earlierSummaries,
  }
}

/** The last `max` items, with how many earlier ones were left out. */
function tail<T>(items: readonly T[], max: number): { items: readonly T[]; skipped: number } {
  const keep = Math.max(0, Math.min(items.length, max))
  return { items: items.slice(items.length - keep), skipped: items.length - keep }
}

function render(facts: Facts, previous: string | undefined, caps: Caps): string {
  const out: string[] = [DIGEST_HEADER]
  out.push(
    `Covers ${facts.messages} message${facts.messages === 1 ? '' : 's'}: ` +
      `${facts.userRequests.length} user request(s), ${facts.toolCalls} tool call(s), ` +
      `${facts.toolResults} tool result(s), ${facts.errors.length} error(s).`,
  )

  const carried = [previous?.trim() ?? '', ...facts.earlierSummaries].filter((s) => s !== '')
  if (carried.length > 0) {
    out.push('', 'Previous summary (carried forward):')
    out.push(cut(carried.join('\n\n'), caps.maxPreviousChars))
  }

  const requests = tail(facts.userRequests, caps.maxUserRequests)
  out.push('', `User requests (${facts.userRequests.length}):`)
  if (requests.skipped > 0) out.push(`(${requests.skipped} earlier request(s) not shown)`)
  const firstNumber = requests.skipped + 1
  requests.items.forEach((request, i) => {
    out.push(`${firstNumber + i}. ${cut(request, caps.maxRequestChars)}`)
  })
  if (facts.userRequests.length === 0) out.push('(none)')

  const tools = [...facts.toolCounts].sort((a, b) =>
    b[1] !== a[1] ? b[1] - a[1] : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  )
  out.push('', `Tools used (${tools.length} distinct, ${facts.toolCalls} call(s)):`)
  for (const [name, count] of tools.slice(0, caps.maxTools)) {
    out.push(`- ${cut(name, caps.maxLineChars)} × ${count}`)
  }
  if (tools.length > caps.maxTools) out.push(`(${tools.length - caps.maxTools} more tool(s))`)
  if (tools.length === 0) out.push('(none)')

  out.push('', `Files touched (${facts.files.length}):`)
  for (const path of facts.files.slice(0, caps.maxFiles)) {
    out.push(`- ${cut(path, caps.maxLineChars)}`)
  }
  if (facts.files.length > caps.maxFiles) {
    out.push(`(${facts.files.length - caps.maxFiles} more file(s))`)
  }
  if (facts.files.length === 0) out.push('(none)')

  const commands = tail(facts.commands, caps.maxCommands)
  out.push('', `Commands run (${facts.commands.length}):`)
  if (commands.skipped > 0) out.push(`(${commands.skipped} earlier command(s) not shown)`)
  for (const command of commands.items) out.push(`- ${cut(command, caps.maxLineChars)}`)
  if (facts.commands.length === 0) out.push('(none)')

  const errors = tail(facts.errors, caps.maxErrors)
  out.push('', `Errors (${facts.errors.length}):`)
  if (errors.skipped > 0) out.push(`(${errors.skipped} earlier error(s) not shown)`)
  for (const error of errors.items) out.push(`- ${cut(error, caps.maxLineChars)}`)
  if (facts.errors.length === 0) out.push('(none)')

  out.push('', 'Latest state (last assistant text):')
  out.push(facts.latest !== null ? cut(facts.latest, caps.maxLatestChars) : '(none)')

  return out.join('\n')
}

function scaled(caps: Caps, factor: number): Caps {
  if (factor >= 1) return caps
  const count = (n: number) => Math.max(1, Math.floor(n * factor))
  const chars = (n: number) => Math.max(40, Math.floor(n * factor))
  return {
    maxUserRequests: count(caps.maxUserRequests),
    maxRequestChars: chars(caps.maxRequestChars),
    maxTools: count(caps.maxTools),
    maxFiles: count(caps.maxFiles),
    maxCommands: count(caps.maxCommands),
    maxErrors: count(caps.maxErrors),
    maxLineChars: chars(caps.maxLineChars),
    maxLatestChars: chars(caps.maxLatestChars),
    maxPreviousChars: chars(caps.maxPreviousChars),
  }
}

/**
 * Builds the digest text for a request. Bounded by `options.maxChars` (and by
 * `request.maxOutputTokens × 4` chars when given): the caps shrink step by step until the text
 * fits, and a last-resort cut (marked) guarantees the bound.
 */
export function buildDigest(request: SummaryRequest, options: DigestOptions = {}): string {
  let limit = options.maxChars ?? DEFAULT_MAX_CHARS
  if (request.maxOutputTokens !== undefined && request.maxOutputTokens > 0) {
    limit = Math.min(limit, request.maxOutputTokens * 4)
  }
  const facts = gather(request.messages)
  const caps: Caps = { ...DEFAULT_CAPS, ...definedOnly(options) }
  let text = ''
  for (const factor of [1, 0.6, 0.4, 0.25, 0.15]) {
    text = render(facts, request.previousSummary, scaled(caps, factor))
    if (text.length <= limit) return text
  }
  const marker = `\n… [digest cut to ${limit} chars]`
  return marker.length >= limit
    ? sliceSafe(text, limit)
    : sliceSafe(text, limit - marker.length) + marker
}

function definedOnly(options: DigestOptions): Partial<Caps> {
  const out: Record<string, number> = {}
  for (const [key, value] of Object.entries(options)) {
    if (key !== 'maxChars' && typeof value === 'number' && Number.isFinite(value)) out[key] = value
  }
  return out as Partial<Caps>
}

/** The offline digest summariser (id `digest`, `isLlm: false`). Never throws, never fails. */
export function createDigestSummarizer(options: DigestOptions = {}): Summarizer {
  return {
    id: DIGEST_ID,
    label: DIGEST_LABEL,
    isLlm: false,
    summarize(request) {
      try {
        return Promise.resolve({ ok: true, text: buildDigest(request, options) })
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return Promise.resolve({ ok: false, error: `digest failed: ${message}` })
      }
    },
  }
}
