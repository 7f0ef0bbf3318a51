import type { Exchange, SniffedInput } from '../types.ts'
import { isObject, str } from '../util.ts'
import { parseJsonBounded } from '../../engine/json.ts'

/**
 * Local fallback unwrap of capture wrappers (`*.exchanges.json`, VCR `interactions`).
 *
 * Why: the shared `sniff.ts` only unwraps requests whose URL matches `/v1/chat/completions`,
 * so OpenAI-compatible servers (`api.deepseek.com/chat/completions`,
 * `…/v1beta/openai/chat/completions`) stay wrapped. This applies a looser URL test (any path
 * ending in `/chat/completions` or `/responses`) and is a no-op once `sniff` has unwrapped.
 */

const URL_OK = /\/(chat\/completions|responses)(\/compact)?(\?|$)/

function maybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const t = value.trimStart()
  if (!t.startsWith('{') && !t.startsWith('[')) return value
  try {
    return parseJsonBounded(value).value
  } catch {
    return value
  }
}

function isBody(body: unknown): boolean {
  return isObject(body) && (Array.isArray(body.messages) || body.input !== undefined)
}

export function unwrapCapture(input: SniffedInput): SniffedInput {
  if (input.kind !== 'json' || input.exchange) return input
  const v = input.value
  const items = Array.isArray(v)
    ? v
    : isObject(v) && Array.isArray(v.interactions)
      ? v.interactions
      : null
  if (!items || items.length === 0) return input
  const all: { url?: string; request: unknown; response: unknown }[] = []
  for (const item of items) {
    if (!isObject(item) || !isObject(item.request)) return input
    const req = item.request
    const res = isObject(item.response) ? item.response : undefined
    all.push({
      url: str(req.uri) ?? str(req.url),
      request: maybeJson(req.parsed_body ?? req.body),
      response: res ? maybeJson(res.parsed_body ?? res.body) : undefined,
    })
  }
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]
    if (!e || !isBody(e.request) || (e.url !== undefined && !URL_OK.test(e.url))) continue
    const exchange: Exchange = {
      wrapper: 'vcr',
      request: e.request,
      response: e.response,
      ...(e.url !== undefined ? { url: e.url } : {}),
      count: all.length,
      used: i + 1,
    }
    return { kind: 'json', text: input.text, value: e.request, exchange }
  }
  return input
}

/** The URLs of a capture, for evidence strings. */
export function exchangeNote(exchange: Exchange): string {
  return `${exchange.wrapper} capture with ${exchange.count} request(s); used #${exchange.used}${
    exchange.url ? ` (${exchange.url})` : ''
  }`
}
