import { createServer } from 'node:http'
import type { IncomingHttpHeaders, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Message } from '../model.ts'
import { createHttpSummarizer, endpointUrl } from './http.ts'
import type { HttpSummarizerConfig } from './http.ts'
import type { SummaryRequest } from './types.ts'

/**
 * A real local HTTP server emulating both APIs. The first path segment picks the behaviour, so
 * tests do not share state: `/ok/v1/chat/completions`, `/fail500/v1/messages`, `/slow/…`, …
 */
interface Recorded {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Record<string, unknown>
}

let server: Server
let base = ''
let recorded: Recorded[] = []
let slowClosedEarly = 0

function reply(kind: 'openai' | 'anthropic', text: string | null): unknown {
  return kind === 'openai'
    ? {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'llama3.1:8b-served',
        choices: [
          { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
        ],
      }
    : {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-served',
        content:
          text === null
            ? []
            : [
                { type: 'text', text: text.slice(0, 5) },
                { type: 'text', text: text.slice(5) },
              ],
        stop_reason: 'end_turn',
      }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const path = req.url ?? ''
      recorded.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      })
      const mode = path.split('/')[1] ?? ''
      const kind = path.endsWith('/chat/completions') ? 'openai' : 'anthropic'
      const send = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(body)
      }
      switch (mode) {
        case 'ok':
          return send(200, JSON.stringify(reply(kind, '  Summary: fixed the parser.  ')))
        case 'think':
          return send(200, JSON.stringify(reply(kind, '<think>hmm</think>\nThe summary.')))
        case 'fail500':
          return send(500, 'Internal Server Error: model crashed')
        case 'apierror':
          return send(
            401,
            JSON.stringify({
              type: 'error',
              error: { type: 'authentication_error', message: 'invalid x-api-key' },
            }),
          )
        case 'badjson':
          return send(200, '{"choices": [')
        case 'empty':
          return send(200, JSON.stringify(reply(kind, '   ')))
        case 'nullcontent':
          return send(200, JSON.stringify(reply(kind, null)))
        case 'shape':
          return send(200, JSON.stringify({ hello: 'world' }))
        case 'slow': {
          const timer = setTimeout(() => send(200, JSON.stringify(reply(kind, 'too late'))), 5_000)
          res.on('close', () => {
            if (!res.writableFinished) slowClosedEarly++
            clearTimeout(timer)
          })
          return
        }
        default:
          return send(404, 'no such route')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

beforeEach(() => {
  recorded = []
})

const messages: Message[] = [
  { id: 'u1', role: 'user', parts: [{ kind: 'text', text: 'Fix parser.ts please' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { kind: 'text', text: 'Reading it.' },
      {
        kind: 'tool_call',
        callId: 'c1',
        name: 'Read',
        argsRaw: '{"file_path":"parser.ts"}',
        args: { file_path: 'parser.ts' },
      },
    ],
  },
  {
    id: 't1',
    role: 'tool',
    parts: [
      {
        kind: 'tool_result',
        callId: 'c1',
        content: [{ kind: 'text', text: 'z'.repeat(5_000) }],
        isError: false,
      },
    ],
  },
]

const request: SummaryRequest = {
  messages,
  instructions: 'Summarise this coding session.',
  previousSummary: 'Earlier: set up the repo.',
  maxOutputTokens: 777,
}

function openai(mode: string, extra: Partial<HttpSummarizerConfig> = {}) {
  return createHttpSummarizer(
    { kind: 'openai-chat', baseUrl: `${base}/${mode}/v1`, model: 'llama3.1:8b', ...extra },
    globalThis.fetch,
  )
}
function anthropic(mode: string, extra: Partial<HttpSummarizerConfig> = {}) {
  return createHttpSummarizer(
    { kind: 'anthropic', baseUrl: `${base}/${mode}`, model: 'claude-x', ...extra },
    globalThis.fetch,
  )
}

describe('HTTP summariser: OpenAI-compatible chat completions', () => {
  it('posts the transcript and returns the summary', async () => {
    const s = openai('ok', { apiKey: 'sk-test' })
    expect(s.isLlm).toBe(true)
    expect(s.id).toBe('http:openai-chat:llama3.1:8b')
    expect(s.label).toContain('OpenAI-compatible')
    const r = await s.summarize(request)
    expect(r).toEqual({ ok: true, text: 'Summary: fixed the parser.', model: 'llama3.1:8b-served' })
    expect(recorded).toHaveLength(1)
    const [req] = recorded
    expect(req?.method).toBe('POST')
    expect(req?.path).toBe('/ok/v1/chat/completions')
    expect(req?.headers.authorization).toBe('Bearer sk-test')
    expect(req?.headers['content-type']).toBe('application/json')
    expect(req?.headers['x-api-key']).toBeUndefined()
    expect(req?.body.model).toBe('llama3.1:8b')
    expect(req?.body.max_tokens).toBe(777)
    expect(req?.body.temperature).toBe(0)
    const sent = req?.body.messages as { role: string; content: string }[]
    expect(sent.map((m) => m.role)).toEqual(['system', 'user'])
    expect(sent[0]?.content).toBe('Summarise this coding session.')
    const transcript = sent[1]?.content ?? ''
    expect(transcript.startsWith('[previous summary]: Earlier: set up the repo.')).toBe(true)
    expect(transcript).toContain('[user]: Fix parser.ts please')
    expect(transcript).toContain('[tool call] Read({"file_path":"parser.ts"})')
    expect(transcript).toContain('[tool result]: zzz')
    expect(transcript).toContain('[truncated: 5000 chars total, showing first 2000]')
    expect(transcript.length).toBeLessThan(2_500)
  })

  it('sends no Authorization header without a key and uses config defaults', async () => {
    const r = await openai('ok', { maxOutputTokens: 321 }).summarize({
      messages,
      instructions: 'x',
    })
    expect(r.ok).toBe(true)
    expect(recorded[0]?.headers.authorization).toBeUndefined()
    expect(recorded[0]?.body.max_tokens).toBe(321)
  })

  it('accepts a bare origin and a full endpoint URL as base', async () => {
    expect(endpointUrl('openai-chat', 'http://localhost:11434')).toBe(
      'http://localhost:11434/v1/chat/completions',
    )
    expect(endpointUrl('openai-chat', 'http://localhost:11434/v1/')).toBe(
      'http://localhost:11434/v1/chat/completions',
    )
    expect(endpointUrl('openai-chat', 'https://openrouter.ai/api/v1')).toBe(
      'https://openrouter.ai/api/v1/chat/completions',
    )
    expect(endpointUrl('openai-chat', 'http://h/v1/chat/completions')).toBe(
      'http://h/v1/chat/completions',
    )
    const r = await createHttpSummarizer(
      { kind: 'openai-chat', baseUrl: `${base}/ok/v1/chat/completions/`, model: 'm' },
      globalThis.fetch,
    ).summarize(request)
    expect(r.ok).toBe(true)
    expect(recorded[0]?.path).toBe('/ok/v1/chat/completions')
  })

  it('drops inline <think> blocks of local reasoning models', async () => {
    const r = await openai('think').summarize(request)
    expect(r).toMatchObject({ ok: true, text: 'The summary.' })
  })

  it('lets user headers override ours, case-insensitively', async () => {
    await openai('ok', { apiKey: 'sk-a', headers: { Authorization: 'Token other' } }).summarize(
      request,
    )
    expect(recorded[0]?.headers.authorization).toBe('Token other')
  })

  it('fails with the status on a 500', async () => {
    const r = await openai('fail500').summarize(request)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toContain('HTTP 500')
    expect(r.error).toContain('model crashed')
  })

  it('fails on malformed JSON, empty or missing content', async () => {
    for (const mode of ['badjson', 'empty', 'nullcontent', 'shape']) {
      const r = await openai(mode).summarize(request)
      expect(r.ok, mode).toBe(false)
    }
    const bad = await openai('badjson').summarize(request)
    expect(bad.ok === false && bad.error).toMatch(/malformed JSON/)
    const empty = await openai('empty').summarize(request)
    expect(empty.ok === false && empty.error).toMatch(/empty summary/)
  })

  it('times out a slow server and aborts the request', async () => {
    const before = slowClosedEarly
    const r = await openai('slow', { timeoutMs: 150 }).summarize(request)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toMatch(/timed out after 150 ms/)
    for (let i = 0; i < 50 && slowClosedEarly === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(slowClosedEarly).toBeGreaterThan(before)
  })

  it('fails on a refused connection', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const r = await createHttpSummarizer(
      { kind: 'openai-chat', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' },
      globalThis.fetch,
    ).summarize(request)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toMatch(/network error/)
    expect(r.error).toMatch(/ECONNREFUSED|fetch failed/)
  })

  it('fails without a request when the config is invalid', async () => {
    for (const config of [
      { kind: 'openai-chat' as const, baseUrl: 'localhost:11434', model: 'm' },
      { kind: 'openai-chat' as const, baseUrl: `${base}/ok/v1`, model: ' ' },
    ]) {
      const r = await createHttpSummarizer(config, globalThis.fetch).summarize(request)
      expect(r.ok).toBe(false)
    }
    expect(recorded).toHaveLength(0)
  })

  it('never throws, even when fetch itself throws synchronously', async () => {
    const r = await createHttpSummarizer(
      { kind: 'openai-chat', baseUrl: 'http://x/v1', model: 'm' },
      () => {
        throw new Error('boom')
      },
    ).summarize(request)
    expect(r).toEqual({
      ok: false,
      error: 'network error calling http://x/v1/chat/completions: boom',
    })
  })
})

describe('HTTP summariser: Anthropic Messages', () => {
  it('posts to /v1/messages with the Anthropic headers and joins text blocks', async () => {
    const s = anthropic('ok', { apiKey: 'sk-ant-test' })
    expect(s.label).toContain('Anthropic')
    const r = await s.summarize(request)
    expect(r).toEqual({ ok: true, text: 'Summary: fixed the parser.', model: 'claude-served' })
    const [req] = recorded
    expect(req?.path).toBe('/ok/v1/messages')
    expect(req?.headers['x-api-key']).toBe('sk-ant-test')
    expect(req?.headers['anthropic-version']).toBe('2023-06-01')
    expect(req?.headers['content-type']).toBe('application/json')
    expect(req?.headers.authorization).toBeUndefined()
    expect(req?.body.model).toBe('claude-x')
    expect(req?.body.max_tokens).toBe(777)
    expect(req?.body.system).toBe('Summarise this coding session.')
    const sent = req?.body.messages as { role: string; content: string }[]
    expect(sent).toHaveLength(1)
    expect(sent[0]?.role).toBe('user')
    expect(sent[0]?.content).toContain('[assistant]: Reading it.')
  })

  it('does not double /v1 when the base already has it', () => {
    expect(endpointUrl('anthropic', 'https://api.anthropic.com')).toBe(
      'https://api.anthropic.com/v1/messages',
    )
    expect(endpointUrl('anthropic', 'https://proxy.example/v1/')).toBe(
      'https://proxy.example/v1/messages',
    )
  })

  it('reports the API error message and status', async () => {
    const r = await anthropic('apierror').summarize(request)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toContain('HTTP 401')
    expect(r.error).toContain('authentication_error: invalid x-api-key')
  })

  it('fails on 500, malformed JSON, empty content and timeouts', async () => {
    const results = await Promise.all([
      anthropic('fail500').summarize(request),
      anthropic('badjson').summarize(request),
      anthropic('nullcontent').summarize(request),
      anthropic('empty').summarize(request),
      anthropic('slow', { timeoutMs: 100 }).summarize(request),
    ])
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false, false])
    const errors = results.map((r) => (r.ok ? '' : r.error))
    expect(errors[0]).toContain('HTTP 500')
    expect(errors[1]).toMatch(/malformed JSON/)
    expect(errors[2]).toMatch(/empty summary/)
    expect(errors[3]).toMatch(/empty summary/)
    expect(errors[4]).toMatch(/timed out/)
  })
})
