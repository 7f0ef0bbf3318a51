import { describe, expect, it } from 'vitest'
import { EngineClient, isStale, StaleError, type WorkerLike } from './client.ts'
import {
  PROTOCOL_VERSION,
  type CountedMessage,
  type FromWorker,
  type LoadedMessage,
  type ToWorker,
} from './protocol.ts'

/** A worker stand-in: records what the client posts and lets the test reply. */
class FakeWorker implements WorkerLike {
  readonly posted: ToWorker[] = []
  terminated = false
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null

  postMessage(message: ToWorker): void {
    this.posted.push(message)
  }

  terminate(): void {
    this.terminated = true
  }

  reply(message: FromWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>)
  }
}

function loaded(id: number, extra: Partial<LoadedMessage> = {}): LoadedMessage {
  return {
    type: 'loaded',
    id,
    protocol: PROTOCOL_VERSION,
    detection: { format: 'openai-chat', confidence: 0.95, evidence: ['a messages array'] },
    candidates: [],
    formats: ['openai-chat'],
    warnings: [],
    warningCount: 0,
    error: null,
    report: null,
    preview: [],
    ms: 1,
    ...extra,
  }
}

function counted(id: number): CountedMessage {
  // The report's content does not matter to the client: it only routes messages by id.
  return { type: 'counted', id, tokenizer: 'o200k_base', report: null as never, ms: 2 }
}

function setup() {
  const worker = new FakeWorker()
  const client = new EngineClient(() => worker)
  return { worker, client }
}

describe('EngineClient', () => {
  it('resolves loaded, then counted, for the same request id', async () => {
    const { worker, client } = setup()
    const request = client.load('{}', { fileName: 'a.json' })
    expect(worker.posted).toEqual([
      { type: 'load', id: request.id, text: '{}', fileName: 'a.json', format: undefined },
    ])
    worker.reply(loaded(request.id))
    await expect(request.loaded).resolves.toMatchObject({ type: 'loaded', id: request.id })
    worker.reply(counted(request.id))
    await expect(request.counted).resolves.toMatchObject({ type: 'counted', id: request.id })
  })

  it('forwards progress to the request that asked', async () => {
    const { worker, client } = setup()
    const phases: string[] = []
    const request = client.load('x', { onProgress: (p) => phases.push(p.phase) })
    worker.reply({ type: 'progress', id: request.id, phase: 'parse', done: 0, total: 4 })
    worker.reply({ type: 'progress', id: request.id, phase: 'estimate', done: 1, total: 4 })
    expect(phases).toEqual(['parse', 'estimate'])
  })

  it('makes earlier requests stale when a new load starts, and drops their replies', async () => {
    const { worker, client } = setup()
    const first = client.load('first')
    const second = client.load('second')
    await expect(first.loaded).rejects.toBeInstanceOf(StaleError)
    await expect(first.counted).rejects.toSatisfy(isStale)
    expect(worker.posted.map((m) => [m.type, m.id])).toEqual([
      ['load', first.id],
      ['cancel', first.id],
      ['load', second.id],
    ])
    // A late reply to the first load must not resolve the second.
    worker.reply(loaded(first.id, { fileName: 'stale' }))
    worker.reply(loaded(second.id, { fileName: 'fresh' }))
    await expect(second.loaded).resolves.toMatchObject({ fileName: 'fresh' })
  })

  it('cancel rejects the request and tells the worker', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    client.cancel(request.id)
    await expect(request.loaded).rejects.toSatisfy(isStale)
    expect(worker.posted.at(-1)).toEqual({ type: 'cancel', id: request.id })
  })

  it('resolves counted with null when the transcript could not be parsed', async () => {
    const { worker, client } = setup()
    const request = client.load('not json')
    worker.reply(loaded(request.id, { error: { line: 1, offset: 0, message: 'bad' } }))
    await expect(request.loaded).resolves.toMatchObject({ error: { line: 1 } })
    await expect(request.counted).resolves.toBeNull()
  })

  it('refuses a worker that speaks another protocol version', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    worker.reply(loaded(request.id, { protocol: PROTOCOL_VERSION + 1 }))
    await expect(request.loaded).rejects.toThrow(/protocol/)
  })

  it('rejects with the worker error message, including its line', async () => {
    const { worker, client } = setup()
    const request = client.count('cl100k_base')
    expect(worker.posted).toEqual([{ type: 'count', id: request.id, tokenizer: 'cl100k_base' }])
    worker.reply({ type: 'error', id: request.id, message: 'boom', line: 7 })
    await expect(request.counted).rejects.toThrow('boom (line 7)')
  })

  it('fails every pending request when the worker itself crashes', async () => {
    const { worker, client } = setup()
    const request = client.load('x')
    worker.onerror?.({ message: 'script failed', preventDefault: () => undefined } as ErrorEvent)
    await expect(request.loaded).rejects.toThrow('script failed')
    expect(worker.terminated).toBe(true)
  })
})
