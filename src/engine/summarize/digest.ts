import type { Facts } from './digest-facts.ts'
import { gather } from './digest-gather.ts'
import { sliceSafe } from './transcript.ts'
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

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${sliceSafe(text, Math.max(0, max - 1))}…`
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
    // Its options are plain numbers: their JSON is their value.
    valueKey: `${DIGEST_ID}:${DIGEST_LABEL}:${JSON.stringify(options)}`,
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
