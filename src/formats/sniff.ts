import type { Exchange, JsonlLine, ParseWarning, SniffedInput } from './types.ts'
import { parseJsonBounded, type DeepJson } from '../engine/json.ts'
import { decodeBase64Prefix } from '../engine/tokens/images.ts'
import { isRecordItem, RECORD_KEY, takeFromJson, takeFromMarkdown } from './compaction-record.ts'
import { decodeUtf8 } from './decode.ts'
import { arr, isObject, jsonErrorOffset, lineOfOffset, str, warning } from './util.ts'

/**
 * One structural pass over the input: JSON document, JSON Lines, or plain text (Markdown).
 * Wrappers that carry API requests (VCR cassettes, HAR files, proxy logs) are unwrapped to the
 * last full request so detection and parsing see the conversation, not the envelope.
 */
export function sniff(rawText: string): SniffedInput {
  const input = sniffStructure(rawText, [])
  return input.notices?.length === 0 ? { ...input, notices: undefined } : input
}

/**
 * The warning for a value nested deeper than `MAX_JSON_DEPTH`: it loads as its JSON text (a
 * string), so nothing is lost and the rest of the input keeps its structure.
 */
export function deepWarning(text: string, base: number, deep: DeepJson, where = ''): ParseWarning {
  const offset = base + deep.offset
  const what = deep.count === 1 ? '1 value is' : `${deep.count} values are`
  return warning(
    lineOfOffset(text, offset),
    offset,
    `${where}nesting deeper than ${deep.limit} levels at line ${lineOfOffset(text, offset)}, offset ${offset}: ${what} kept from that depth on as JSON text (a string); the rest loads as usual`,
  )
}

function sniffStructure(rawText: string, notices: ParseWarning[]): SniffedInput {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText
  const start = firstNonSpace(text)
  const first = text[start]
  let jsonError: ParseWarning | undefined
  if (first === '{' || first === '[') {
    try {
      const { value: parsed, deep } = parseJsonBounded(text)
      if (deep) notices.push(deepWarning(text, 0, deep))
      const { value, record } = takeFromJson(parsed)
      return { ...unwrapJson(text, value, notices), notices, ...(record ? { record } : {}) }
    } catch (error) {
      const offset = jsonErrorOffset(text, error)
      jsonError = warning(
        lineOfOffset(text, offset),
        offset,
        `not a single JSON document: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    if (first === '{') {
      const jsonl = sniffJsonl(text, notices)
      const last = jsonl.lines[jsonl.lines.length - 1]
      const record = last && isRecordItem(last.value) ? { raw: last.value[RECORD_KEY] } : undefined
      if (record) jsonl.lines.pop()
      if (jsonl.lines.length > 0 && jsonl.lines.length >= jsonl.bad.length) {
        return {
          ...unwrapJsonl(text, jsonl.lines, jsonl.bad, notices),
          notices,
          ...(record ? { record } : {}),
        }
      }
      notices.length = 0 // not JSON Lines after all: the text is read as text
    }
  }
  const md = takeFromMarkdown(text)
  const record = md.record ? { record: md.record } : {}
  return jsonError
    ? { kind: 'text', text: md.text, jsonError, notices, ...record }
    : { kind: 'text', text: md.text, notices, ...record }
}

function firstNonSpace(text: string): number {
  let i = 0
  while (i < text.length && /\s/.test(text[i] ?? '')) i++
  return i
}

/** Split on newlines and parse each non-empty line, recording (not throwing on) bad lines. */
export function sniffJsonl(
  text: string,
  notices: ParseWarning[] = [],
): { lines: JsonlLine[]; bad: ParseWarning[] } {
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
        const { value, deep } = parseJsonBounded(lineText)
        if (deep) notices.push(deepWarning(text, offset, deep))
        lines.push({ line: lineNo, offset, value })
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

/** A body stored as a string inside a capture; too-deep values are noted without a position. */
function parseMaybeJson(value: unknown, notices: ParseWarning[]): unknown {
  if (typeof value !== 'string') return value
  const t = value.trimStart()
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      const { value: parsed, deep } = parseJsonBounded(value)
      if (deep) {
        const what = deep.count === 1 ? '1 value is' : `${deep.count} values are`
        notices.push(
          warning(
            0,
            0,
            `a captured body nests deeper than ${deep.limit} levels (at offset ${deep.offset} of the body): ${what} kept from that depth on as JSON text; the rest loads as usual`,
          ),
        )
      }
      return parsed
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

/** Does this exchange carry a conversation request to an LLM endpoint? */
export function isConversationExchange(e: { readonly url?: string; readonly request: unknown }) {
  return isConversationBody(e.request) && (!e.url || LLM_PATH.test(e.url))
}

/** Pick the last exchange whose request carries a conversation (it holds the whole history). */
function pickExchange(wrapper: Exchange['wrapper'], all: RawExchange[]): Exchange | null {
  let used = -1
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]
    if (!e) continue
    if (isConversationExchange(e)) {
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
    all,
  }
}

function vcrExchanges(items: readonly unknown[], notices: ParseWarning[]): RawExchange[] | null {
  if (items.length === 0) return null
  const out: RawExchange[] = []
  for (const item of items) {
    if (!isObject(item) || !isObject(item.request)) return null
    const req = item.request
    const res = isObject(item.response) ? item.response : undefined
    out.push({
      url: str(req.uri) ?? str(req.url),
      request: parseMaybeJson(req.parsed_body ?? req.body, notices),
      response: res ? parseMaybeJson(res.parsed_body ?? res.body, notices) : undefined,
    })
  }
  return out
}

function harExchanges(log: Record<string, unknown>, notices: ParseWarning[]): RawExchange[] {
  const out: RawExchange[] = []
  for (const entry of arr(log.entries)) {
    if (!isObject(entry) || !isObject(entry.request)) continue
    const req = entry.request
    const post = isObject(req.postData) ? req.postData : undefined
    const res = isObject(entry.response) ? entry.response : undefined
    const content = res && isObject(res.content) ? res.content : undefined
    let body = content ? str(content.text) : undefined
    if (body !== undefined && content?.encoding === 'base64') {
      body = decodeUtf8(decodeBase64Prefix(body, Number.MAX_SAFE_INTEGER)).text
    }
    out.push({
      url: str(req.url),
      request: parseMaybeJson(post ? str(post.text) : undefined, notices),
      response: parseMaybeJson(body, notices),
    })
  }
  return out
}

function unwrapJson(text: string, value: unknown, notices: ParseWarning[]): SniffedInput {
  if (isObject(value) && isObject(value.log) && Array.isArray(value.log.entries)) {
    const exchange = pickExchange('har', harExchanges(value.log, notices))
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  if (isObject(value) && Array.isArray(value.interactions)) {
    const all = vcrExchanges(value.interactions, notices)
    const exchange = all && pickExchange('vcr', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  if (Array.isArray(value)) {
    const all = vcrExchanges(value, notices)
    const exchange = all && pickExchange('vcr', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  return { kind: 'json', text, value }
}

function unwrapJsonl(
  text: string,
  lines: JsonlLine[],
  bad: ParseWarning[],
  notices: ParseWarning[],
): SniffedInput {
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
        request: parseMaybeJson(req.body, notices),
        response: res ? parseMaybeJson(res.body ?? res.body_raw, notices) : undefined,
      }
    })
    const exchange = pickExchange('proxy', all)
    if (exchange) return { kind: 'json', text, value: exchange.request, exchange }
  }
  return { kind: 'jsonl', text, lines, bad }
}
