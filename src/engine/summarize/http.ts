import { formatTranscript } from './transcript.ts'
import type { Summarizer, SummaryRequest, SummaryResult } from './types.ts'
import { parseJson as parseJsonStrict } from '../json.ts'

/**
 * HTTP summarisers the user configures at run time: OpenAI-compatible chat completions (OpenAI,
 * Ollama, vLLM, llama.cpp, LM Studio, OpenRouter…) and the Anthropic Messages API.
 *
 * Transcripts are private: this module sends nothing unless the user created a summariser with an
 * endpoint. `fetch` is injected (the engine has no DOM lib and must stay testable), and every
 * failure — HTTP status, network, timeout, malformed or empty reply — comes back as
 * `{ ok: false, error }`: `summarize` never throws, so the caller can fail open and record why.
 */

/**
 * The request init we pass to `fetch`. `signal` is typed `never` on purpose: the engine cannot
 * name `AbortSignal` (no DOM lib), and `never` keeps the real `globalThis.fetch` assignable to
 * `FetchLike`. At run time it carries the signal of a `globalThis.AbortController`, when one exists.
 */
export interface FetchInit {
  readonly method: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly signal?: never
}

/** The part of a fetch `Response` we read. */
export interface FetchResponseLike {
  readonly ok: boolean
  readonly status: number
  text(): Promise<string>
}

/** A minimal structural `fetch`: the caller injects `globalThis.fetch` (browser, worker or Node). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>

export type HttpSummarizerKind = 'openai-chat' | 'anthropic'

export interface HttpSummarizerConfig {
  readonly kind: HttpSummarizerKind
  /**
   * `openai-chat`: the API root including its version segment, e.g. `http://localhost:11434/v1`
   * (Ollama), `http://localhost:8000/v1` (vLLM), `https://api.openai.com/v1`; we POST to
   * `${baseUrl}/chat/completions`. A bare origin (`http://localhost:11434`) gets `/v1` added; a URL
   * already ending in `/chat/completions` is used as is.
   *
   * `anthropic`: the origin, e.g. `https://api.anthropic.com`; we POST to `${baseUrl}/v1/messages`
   * (a base ending in `/v1` or `/v1/messages` is not doubled).
   */
  readonly baseUrl: string
  readonly model: string
  /** Sent as `Authorization: Bearer …` (openai-chat) or `x-api-key` (anthropic) when non-empty. */
  readonly apiKey?: string
  /** Used when the request does not set `maxOutputTokens`. Default 4,096. */
  readonly maxOutputTokens?: number
  /** Whole-call timeout (connect, wait, read body). Default 120,000 ms; ≤ 0 disables it. */
  readonly timeoutMs?: number
  /** Extra headers, applied last (they override ours, matched case-insensitively). */
  readonly headers?: Readonly<Record<string, string>>
}

export const DEFAULT_HTTP_MAX_OUTPUT_TOKENS = 4_096
export const DEFAULT_HTTP_TIMEOUT_MS = 120_000
export const ANTHROPIC_VERSION = '2023-06-01'

/** Used when the request's instructions are empty. */
export const DEFAULT_SUMMARY_INSTRUCTIONS =
  'Summarise the conversation below so an AI coding agent can continue the work without it. ' +
  'Keep: what the user asked for, decisions made, files touched and how, commands run and their ' +
  'outcomes, errors and how they were resolved, and what remains to be done. Be concise and factual.'

/** The timer and abort facilities we borrow from the host; the engine's lib does not declare them. */
interface Host {
  readonly setTimeout?: (callback: () => void, ms: number) => unknown
  readonly clearTimeout?: (id: unknown) => void
  readonly AbortController?: new () => { readonly signal: unknown; abort(reason?: unknown): void }
}

const ORIGIN_ONLY = /^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i

/** The URL a summariser of `kind` POSTs to for `baseUrl` (see `HttpSummarizerConfig.baseUrl`). */
export function endpointUrl(kind: HttpSummarizerKind, baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '')
  if (kind === 'openai-chat') {
    if (/\/chat\/completions$/i.test(base)) return base
    if (ORIGIN_ONLY.test(base)) return `${base}/v1/chat/completions`
    return `${base}/chat/completions`
  }
  if (/\/v1\/messages$/i.test(base)) return base
  if (/\/v1$/i.test(base)) return `${base}/messages`
  return `${base}/v1/messages`
}

function validate(config: HttpSummarizerConfig): string | null {
  if (config.kind !== 'openai-chat' && config.kind !== 'anthropic') {
    return `unknown summariser kind ${JSON.stringify(config.kind)}`
  }
  if (typeof config.baseUrl !== 'string' || !/^https?:\/\/[^\s/]+/i.test(config.baseUrl.trim())) {
    return `base URL must start with http:// or https:// (got ${JSON.stringify(config.baseUrl)})`
  }
  if (typeof config.model !== 'string' || config.model.trim() === '') return 'model is required'
  return null
}

function hostOf(baseUrl: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(baseUrl.trim())
  return match?.[1] ?? baseUrl
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  const causeText =
    cause instanceof Error
      ? cause.message
      : isRecord(cause) && typeof cause.code === 'string'
        ? cause.code
        : undefined
  return causeText && causeText !== error.message
    ? `${error.message} (${causeText})`
    : error.message
}

/** `error.message` from an `{ error: { message } }` body (OpenAI and Anthropic both use it). */
function apiErrorMessage(json: unknown): string | null {
  if (!isRecord(json)) return null
  const error = json.error
  if (typeof error === 'string') return error
  if (isRecord(error) && typeof error.message === 'string') {
    return typeof error.type === 'string' ? `${error.type}: ${error.message}` : error.message
  }
  return null
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonStrict(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** Local reasoning models (DeepSeek-R1, Qwen3 on Ollama) put their thinking inline: drop it. */
function stripThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>/, '')
}

function textOfContentBlocks(content: readonly unknown[]): string {
  const texts: string[] = []
  for (const block of content) {
    if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') {
      texts.push(block.text)
    }
  }
  return texts.join('')
}

function extractOpenAi(json: unknown): string | null {
  if (!isRecord(json) || !Array.isArray(json.choices)) return null
  const first: unknown = json.choices[0]
  if (!isRecord(first) || !isRecord(first.message)) return null
  const content = first.message.content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return textOfContentBlocks(content)
  return null
}

function extractAnthropic(json: unknown): string | null {
  if (!isRecord(json) || !Array.isArray(json.content)) return null
  return textOfContentBlocks(json.content)
}

function buildHeaders(config: HttpSummarizerConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const key = config.apiKey?.trim()
  if (config.kind === 'openai-chat') {
    if (key) headers.authorization = `Bearer ${key}`
  } else {
    headers['anthropic-version'] = ANTHROPIC_VERSION
    // Required by Anthropic for calls made from a browser page with the user's own key.
    headers['anthropic-dangerous-direct-browser-access'] = 'true'
    if (key) headers['x-api-key'] = key
  }
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    for (const existing of Object.keys(headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing]
    }
    headers[name] = value
  }
  return headers
}

function buildBody(config: HttpSummarizerConfig, request: SummaryRequest): string {
  const instructions = request.instructions.trim() || DEFAULT_SUMMARY_INSTRUCTIONS
  const transcript = formatTranscript(request.messages, {
    ...(request.previousSummary !== undefined ? { previousSummary: request.previousSummary } : {}),
  })
  const maxTokens =
    request.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULT_HTTP_MAX_OUTPUT_TOKENS
  if (config.kind === 'openai-chat') {
    return JSON.stringify({
      model: config.model,
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: transcript },
      ],
      max_tokens: maxTokens,
      temperature: 0,
    })
  }
  return JSON.stringify({
    model: config.model,
    max_tokens: maxTokens,
    system: instructions,
    messages: [{ role: 'user', content: transcript }],
  })
}

/**
 * A summariser that POSTs the transcript to a chat endpoint the user configured. `fetchImpl` is
 * normally `globalThis.fetch`. Never throws: invalid config, HTTP errors (status + short body),
 * network errors, timeouts, malformed JSON and empty replies all give `{ ok: false, error }`.
 */
export function createHttpSummarizer(
  config: HttpSummarizerConfig,
  fetchImpl: FetchLike,
): Summarizer {
  const kindLabel = config.kind === 'anthropic' ? 'Anthropic Messages' : 'OpenAI-compatible'
  return {
    id: `http:${config.kind}:${config.model}`,
    label: `${kindLabel}: ${config.model} @ ${hostOf(String(config.baseUrl))}`,
    isLlm: true,
    async summarize(request) {
      const invalid = validate(config)
      if (invalid) return { ok: false, error: `summariser not configured: ${invalid}` }
      try {
        return await call(config, fetchImpl, request)
      } catch (error) {
        // Defensive: `call` catches everything it expects; this keeps the never-throw promise.
        return { ok: false, error: `summariser failed: ${describeError(error)}` }
      }
    },
  }
}

async function call(
  config: HttpSummarizerConfig,
  fetchImpl: FetchLike,
  request: SummaryRequest,
): Promise<SummaryResult> {
  const url = endpointUrl(config.kind, config.baseUrl)
  const host = globalThis as unknown as Host
  const controller = host.AbortController ? new host.AbortController() : null
  const init: FetchInit = {
    method: 'POST',
    headers: buildHeaders(config),
    body: buildBody(config, request),
    ...(controller ? { signal: controller.signal as never } : {}),
  }
  const timeoutMs = config.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS
  let timer: unknown
  const timeout = new Promise<SummaryResult>((resolve) => {
    if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs) || !host.setTimeout) return
    timer = host.setTimeout(() => {
      controller?.abort()
      resolve({ ok: false, error: `timed out after ${timeoutMs} ms waiting for ${url}` })
    }, timeoutMs)
  })
  try {
    return await Promise.race([attempt(config, fetchImpl, url, init), timeout])
  } finally {
    if (timer !== undefined) host.clearTimeout?.(timer)
  }
}

async function attempt(
  config: HttpSummarizerConfig,
  fetchImpl: FetchLike,
  url: string,
  init: FetchInit,
): Promise<SummaryResult> {
  let response: FetchResponseLike
  let raw: string
  try {
    response = await fetchImpl(url, init)
  } catch (error) {
    return { ok: false, error: `network error calling ${url}: ${describeError(error)}` }
  }
  try {
    raw = await response.text()
  } catch (error) {
    return { ok: false, error: `reading the reply from ${url} failed: ${describeError(error)}` }
  }
  const parsed = parseJson(raw)
  if (!response.ok) {
    const detail = (parsed.ok ? apiErrorMessage(parsed.value) : null) ?? oneLine(raw, 300)
    return {
      ok: false,
      error: `HTTP ${response.status} from ${url}${detail ? `: ${oneLine(detail, 300)}` : ''}`,
    }
  }
  if (!parsed.ok) {
    return { ok: false, error: `malformed JSON from ${url}: ${oneLine(raw, 200) || '(empty)'}` }
  }
  const apiError = apiErrorMessage(parsed.value)
  if (apiError) return { ok: false, error: `API error from ${url}: ${oneLine(apiError, 300)}` }
  const extracted =
    config.kind === 'openai-chat' ? extractOpenAi(parsed.value) : extractAnthropic(parsed.value)
  if (extracted === null) {
    const expected = config.kind === 'openai-chat' ? 'choices[0].message.content' : 'content[]'
    return { ok: false, error: `unexpected reply from ${url}: no ${expected}` }
  }
  const text = stripThinking(extracted).trim()
  if (text === '') return { ok: false, error: `empty summary from ${url}` }
  const model =
    isRecord(parsed.value) && typeof parsed.value.model === 'string'
      ? parsed.value.model
      : config.model
  return { ok: true, text, model }
}
