import type { Message, ToolCallPart } from '../model.ts'
import { toolResultText } from './transcript.ts'
import { sameItems } from '../arrays.ts'

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
type Item =
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
interface MessageFacts {
  readonly summary: string | null
  readonly request: string | null
  readonly latest: string | null
  readonly calls: number
  readonly results: number
  /** Tool calls and errored results, in part order (a result's name may come from a call before it). */
  readonly items: readonly Item[]
}

const NONE: readonly never[] = []

function readMessage(message: Message): MessageFacts {
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

// Messages are immutable and a summary request passes the ones nothing changed as themselves: a
// re-plan summarises the same 10,000 messages again, so each is read once (its text joined and
// flattened, its calls' files and commands found), not once per request.
const read = new WeakMap<Message, MessageFacts>()

function factsOf(message: Message): MessageFacts {
  let facts = read.get(message)
  if (!facts) {
    facts = readMessage(message)
    read.set(message, facts)
  }
  return facts
}

// The last list gathered per first message (the conversation's own object, so an entry goes
// with its conversation): a re-plan with unchanged values summarises the same span again, the
// same message objects in the same order, and its facts are those of the last request. The list
// is compared object for object, never assumed; `Facts` is only read (render copies what it cuts).
const lastGathered = new WeakMap<Message, { messages: readonly Message[]; facts: Facts }>()

/** The facts the digest is built from, gathered in one pass over the messages. */
export function gather(messages: readonly Message[]): Facts {
  const first = messages[0]
  if (first === undefined) return fold(messages)
  const last = lastGathered.get(first)
  if (last && sameItems(last.messages, messages)) return last.facts
  const facts = fold(messages)
  lastGathered.set(first, { messages, facts })
  return facts
}

function fold(messages: readonly Message[]): Facts {
  const userRequests: string[] = []
  const toolCounts = new Map<string, number>()
  // Call names by id, only for an errored result that names no tool (most requests have none):
  // made when the first one asks, then kept up to date call by call (see callNamesBefore).
  let callNames: Map<string, string> | null = null
  const files: string[] = []
  const seenFiles = new Set<string>()
  const commands: string[] = []
  const errors: string[] = []
  const earlierSummaries: string[] = []
  let latest: string | null = null
  let toolCalls = 0
  let toolResults = 0

  for (let m = 0; m < messages.length; m++) {
    const facts = factsOf(messages[m] as Message)
    if (facts.summary !== null) earlierSummaries.push(facts.summary)
    else if (facts.request !== null) userRequests.push(facts.request)
    else if (facts.latest !== null) latest = facts.latest
    toolCalls += facts.calls
    toolResults += facts.results
    const { items } = facts
    for (let k = 0; k < items.length; k++) {
      const item = items[k] as Item
      if (item.kind === 'call') {
        toolCounts.set(item.name, (toolCounts.get(item.name) ?? 0) + 1)
        if (callNames !== null && item.callId !== null) callNames.set(item.callId, item.name)
        for (const path of item.files) {
          if (!seenFiles.has(path)) {
            seenFiles.add(path)
            files.push(path)
          }
        }
        if (item.command) commands.push(item.command)
      } else {
        const name =
          item.name ??
          (item.callId !== null
            ? (callNames ??= callNamesBefore(messages, m, k)).get(item.callId)
            : undefined)
        errors.push(name ? `${name}: ${item.line}` : item.line)
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

/**
 * The names of the calls before item `k` of message `m`, by call id (a later call with the same
 * id wins): what a map filled call by call from the first message holds at that item.
 */
function callNamesBefore(messages: readonly Message[], m: number, k: number): Map<string, string> {
  const names = new Map<string, string>()
  for (let i = 0; i <= m; i++) {
    const { items } = factsOf(messages[i] as Message)
    const end = i === m ? k : items.length
    for (let j = 0; j < end; j++) {
      const item = items[j] as Item
      if (item.kind === 'call' && item.callId !== null) names.set(item.callId, item.name)
    }
  }
  return names
}
