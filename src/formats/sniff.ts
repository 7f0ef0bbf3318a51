import type { Exchange, JsonlLine, ParseWarning, SniffedInput } from './types.ts'
import { decodeBase64Prefix } from '../engine/tokens/images.ts'
import { arr, isObject, jsonErrorOffset, lineOfOffset, str, utf8Decode, warning } from './util.ts'

/**
 * One structural pass over the input: JSON document, JSON Lines, or plain text (Markdown).
 * Wrappers that carry API requests (VCR cassettes, HAR files, proxy logs) are unwrapped to the
 * last full request so detection and parsing see the conversation, not the envelope.
 */
export function sniff(rawText: string): SniffedInput {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText
  const start = firstNonSpace(text)
  const first = text[start]
  let jsonError: ParseWarning | undefined
  if (first === '{' || first === '[') {
    try {
      const value = JSON.parse(text) as unknown
      return unwrapJson(text, value)
    } catch (error) {
      const offset = jsonErrorOffset(text, error)
      jsonError = warning(
        lineOfOffset(text, offset),
        offset,
        `not a single JSON document: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    if (first === '{') {
      const jsonl = sniffJsonl(text)
      if (jsonl.lines.length > 0 && jsonl.lines.length >= jsonl.bad.length) {
        return unwrapJsonl(text, jsonl.lines, jsonl.bad)
      }
    }
  }
  return jsonError ? { kind: 'text', text, jsonError } : { kind: 'text', text }
}

function firstNonSpace(text: string): number {
  let i = 0
  while (i < text.length && /\s/.test(text[i] ?? '')) i++
  return i
}

/** Split on newlines and parse each non-empty line, recording (not throwing on) bad lines. */
export function sniffJsonl(text: string): { lines: JsonlLine[]; bad: ParseWarning[] } {
  const lines: JsonlLine[] = []
  const bad: ParseWarning[] = []
  let offset = 0
  let lineNo = 0
  while (offset <= text.length) {
    lineNo++
    let end = text.indexOf('\n', offset)
    if (end === -1) end = text.length
    let lineText = text.slice(offset, end)
    if (lineText.endsWith('\r')) lineText = lineText.slice(0, -1)
    if (lineText.trim() !== '') {
      try {
        lines.push({ line: lineNo, offset, value: JSON.parse(lineText) as unknown })
      } catch (error) {
        const isLast = text.slice(end).trim() === ''
        const col = jsonErrorOffset(lineText, error)
        bad.push(
          warning(
            lineNo,
            offset + col,
            isLast
              ? `last line is not complete JSON (file cut mid-write?), skipped: ${errorText(error)}`
              : `line is not valid JSON, skipped: ${errorText(error)}`,
          ),
        )
      }
    }
    if (end === text.length) break
    offset = end + 1
  }
  return { lines, bad }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Paths of LLM endpoints, including OpenAI-compatible ones that are not under /v1
 * (api.deepseek.com/chat/completions, …/v1beta/openai/chat/completions, proxies).
 */
const LLM_PATH =
  /\/chat\/completions\b|\/messages\b|\/responses\b|:(stream)?generateContent\b|\/models\/[^/?]+:/

/** Does this parsed body look like an LLM request carrying a conversation? */
function isConversationBody(body: unknown): boolean {
  return (
    isObject(body) &&
    (Array.isArray(body.messages) || Array.isArray(body.contents) || body.input !== undefined)
  )
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const t = value.trimStart()
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(value) as unknown
    } catch {
      return value
    }
  }
  return value
}

interface RawExchange {
  url?: string
  request: unknown
  response?: unknown
}

/** Pick the last exchange whose request carries a conversation (it holds the whole history). */
function pickExchange(wrapper: Exchange['wrapper'], all: RawExchange[]): Exchange | null {
  let used = -1
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]
    if (!e) continue
    if (isConversationBody(e.request) && (!e.url || LLM_PATH.test(e.url))) {
      used = i
      break
    }
  }
  const chosen = all[used]
  if (!chosen) return null
  return {
    wrapper,
    request: chosen.request,
    response: chosen.response,
    url: chosen.url,
    count: all.length,
    used: used + 1,
  }
}

function vcrExchanges(items: readonly unknown[]): RawExchange[] | null {
  if (items.length === 0) return null
  const out: RawExchange[] = []
  for (const item of items) {
    if (!isObject(item) || !isObject(item.request)) return null
    const req = item.request
    const res = isObject(item.response) ? item.response : undefined
    out.push({
      url: str(req.uri) ?? str(req.url),
      request: parseMaybeJson(req.parsed_body ?? req.body),
      response: res ? parseMaybeJson(res.parsed_body ?? res.body) : undefined,
    })
  }
  return out
}

function harExchanges(log: Record<string, unknown>): RawExchange[] {
  const out: RawExchange[] = []
  for (const entry of arr(log.entries)) {
    if (!isObject(entry) || !isObject(entry.request)) continue
    const req = entry.request
    const post = isObject(req.postData) ? req.postData : undefined
    const res = isObject(entry.response) ? entry.response : undefined
    const content = res && isObject(res.content) ? res.content : undefined
    let body = content ? str(content.text) : undefined
    if (body !== undefined && content?.encoding === 'base64') {
      body = utf8Decode(decodeBase64Prefix(body, Number.MAX_SAFE_INTEGER))
    }
    out.push({
      url: str(req.url),
      request: parseMaybeJson(post ? str(post.text) : undefined),
      response: parseMaybeJson(body),
    })
  }
  return out
}

function unwrapJson(text: string, value: unknown): SniffedInput {
  if (isObject(value) && isObject(value.log) && Array.isArray(value.log.entries)) {
    const exchange = pickExchange('har', harExchanges(value.log))
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  if (isObject(value) && Array.isArray(value.interactions)) {
    const all = vcrExchanges(value.interactions)
    const exchange = all && pickExchange('vcr', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  if (Array.isArray(value)) {
    const all = vcrExchanges(value)
    const exchange = all && pickExchange('vcr', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  return { kind: 'json', text, value }
}

function unwrapJsonl(text: string, lines: JsonlLine[], bad: ParseWarning[]): SniffedInput {
  // claude-trace style proxy logs: one {request, response} pair per line.
  const pairs = lines.filter(
    (l) => isObject(l.value) && isObject(l.value.request) && 'response' in l.value,
  )
  if (pairs.length > 0 && pairs.length >= lines.length / 2) {
    const all: RawExchange[] = pairs.map((l) => {
      const v = l.value as Record<string, unknown>
      const req = v.request as Record<string, unknown>
      const res = isObject(v.response) ? v.response : undefined
      return {
        url: str(req.url) ?? str(req.uri),
        request: parseMaybeJson(req.body),
        response: res ? parseMaybeJson(res.body ?? res.body_raw) : undefined,
      }
    })
    const exchange = pickExchange('proxy', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  return { kind: 'jsonl', text, lines, bad }
}
