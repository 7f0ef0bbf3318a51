import type { Conversation, ToolCallPart } from '../engine/model.ts'
import { parseJson, parseJsonBounded } from '../engine/json.ts'
import { newToolCall } from './shapes.ts'
import type { JsonlLine, ParseError, ParseResult, ParseWarning, SniffedInput } from './types.ts'
import { withFields } from '../engine/objects.ts'

/** Plain-object guard used by every importer: JSON objects only, never arrays or null. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

/** 1-based line number of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1
  const end = Math.min(offset, text.length)
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/**
 * Where a `JSON.parse` failure happened. V8 reports either "at position N" or
 * "(line L column C)"; both are turned into an absolute offset.
 */
export function jsonErrorOffset(text: string, error: unknown): number {
  const message = error instanceof Error ? error.message : String(error)
  const pos = /position (\d+)/.exec(message)
  if (pos) return Number(pos[1])
  const lc = /line (\d+) column (\d+)/.exec(message)
  if (lc) {
    let line = 1
    let i = 0
    const wanted = Number(lc[1])
    while (line < wanted && i < text.length) {
      if (text.charCodeAt(i) === 10) line++
      i++
    }
    return i + Number(lc[2]) - 1
  }
  return text.length
}

export function warning(line: number, offset: number, message: string): ParseWarning {
  return { line, offset, message }
}

export function parseError(line: number, offset: number, message: string): ParseError {
  return { kind: 'parse_error', line, offset, message }
}

export function ok(conversation: Conversation, warnings: readonly ParseWarning[]): ParseResult {
  return { ok: true, conversation, warnings }
}

export function fail(error: ParseError, warnings: readonly ParseWarning[] = []): ParseResult {
  return { ok: false, error, warnings }
}

/**
 * The fatal error for an input of the wrong kind: placed at the JSON syntax error when the text
 * failed to parse, else at the start of the input.
 */
export function failAtInput(
  input: SniffedInput,
  message: string,
  warnings: readonly ParseWarning[] = [],
): ParseResult {
  const where = input.kind === 'text' ? input.jsonError : undefined
  return fail(parseError(where?.line ?? 1, where?.offset ?? 0, message), warnings)
}

/**
 * The JSONL lines of the input. A one-line JSONL file is a valid JSON document, so `sniff`
 * reports it as `json`: accept a single object as a single line.
 */
export function linesOf(input: SniffedInput): readonly JsonlLine[] {
  if (input.kind === 'jsonl') return input.lines
  if (input.kind === 'json' && !input.exchange && isObject(input.value)) {
    return [{ line: 1, offset: 0, value: input.value }]
  }
  return []
}

/** A value's kind for error messages: "an object", "a string", "null"… */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing (the field is missing)'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** A value's shape for error messages, naming up to 8 keys of an object. */
export function keysOf(value: unknown): string {
  if (!isObject(value)) return describe(value)
  const keys = Object.keys(value).slice(0, 8)
  return keys.length ? `an object with keys ${keys.join(', ')}` : 'an empty object'
}

/**
 * Build a tool call from a raw argument string (OpenAI, Responses, Codex): the string is kept
 * byte-for-byte and parsed here, once: `args` is the value when it is JSON, `argsError` why not
 * (both undefined for an empty string). This was a lazy getter, because parsing every argument
 * string is a share of import time on large rollouts; but a compaction run reads `args` of every
 * call anyway (the risk index, payload trimming), and the accessors gave these parts a hidden class
 * of their own, which deoptimised the engine's hot functions (see `shapes.ts`).
 */
export function callFromRawArgs(
  base: Omit<ToolCallPart, 'kind' | 'argsRaw' | 'args' | 'argsError'>,
  raw: string,
): ToolCallPart {
  let args: unknown
  let argsError: string | undefined
  if (raw.trim() !== '') {
    try {
      args = parseJson(raw)
    } catch (error) {
      argsError = error instanceof Error ? error.message : String(error)
    }
  }
  return newToolCall(withFields(base, { argsRaw: raw, args, argsError }))
}

/** Build a tool call from an argument object (Anthropic `input`, Gemini `args`). */
export function callFromObjectArgs(
  base: Omit<ToolCallPart, 'kind' | 'argsRaw' | 'args' | 'argsError'>,
  args: unknown,
): ToolCallPart {
  return newToolCall(withFields(base, { argsRaw: JSON.stringify(args ?? {}), args: args ?? {} }))
}

/**
 * Hands out unique message ids: the source id when it is new, else the id with a `#n` suffix
 * (sources reuse ids: Claude Code merged lines, regenerated turns). Missing ids become `m<index>`.
 */
export class IdAllocator {
  private readonly used = new Set<string>()

  next(preferred: string | undefined, index: number): string {
    let id = preferred && preferred.length > 0 ? preferred : `m${index}`
    if (this.used.has(id)) {
      let n = 2
      while (this.used.has(`${id}#${n}`)) n++
      id = `${id}#${n}`
    }
    this.used.add(id)
    return id
  }
}

/** Byte length of a base64 payload once decoded (ignores padding and whitespace). */
export function base64DecodedBytes(data: string): number {
  let len = data.length
  while (len > 0 && data.charCodeAt(len - 1) === 61 /* = */) len--
  return Math.floor((len * 3) / 4)
}

/** UTF-8 byte length without allocating. */
export function utf8Bytes(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** Split a `data:` URL into media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]*)(?:;[^,]*)?;base64,/.exec(url.slice(0, 200))
  if (!m) return null
  return { mediaType: m[1] ?? '', data: url.slice(m[0].length) }
}

/** Parse the events of a Server-Sent-Events text: `data:` payloads as JSON where possible. */
export function parseSse(text: string): { event?: string; data: unknown }[] {
  const events: { event?: string; data: unknown }[] = []
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined
    const dataLines: string[] = []
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) dataLines.push(line.slice(5).trimStart())
    }
    if (dataLines.length === 0) continue
    const payload = dataLines.join('\n')
    if (payload === '[DONE]') continue
    try {
      events.push({ event, data: parseJsonBounded(payload).value })
    } catch {
      events.push({ event, data: payload })
    }
  }
  return events
}

export function looksLikeSse(value: unknown): value is string {
  return typeof value === 'string' && /^(event:|data:)/m.test(value.slice(0, 500))
}
